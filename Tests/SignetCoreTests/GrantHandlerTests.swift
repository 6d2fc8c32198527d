import Foundation
import Synchronization
import Testing
import SignetCrypto
import SignetSQLite
import SignetStore
import SignetWire
@testable import SignetCore

/// The parts a grant handler takes, made by hand: a store's facets (SQLite in a temporary
/// folder), a clock, token hashing and token minting. No `AuthorizationServer` anywhere in this file.
final class GrantParts: Sendable {
    let clock = ManualClock(SharedKeys.start)
    let storage: SQLiteStorage
    let tokens = OpaqueTokens(hashKey: SharedKeys.masterKey.tokenHashKey, random: SystemRandomSource())
    let issuer: TokenIssuer
    let minter: RefreshTokenMinter
    let policy = ServerPolicy(issuer: "https://id.example.com")
    let userID = "user-1"

    init() throws {
        storage = try SQLiteStorage.temporary()
        for record in SharedKeys.records { try storage.keys.insertKey(record) }
        let ring = SigningKeyRing(store: storage.keys, encryptionKey: SharedKeys.masterKey.keyEncryptionKey, clock: clock,
                                  retentionSeconds: 3600)
        try ring.prepare([.rs256])
        issuer = TokenIssuer(policy: policy, keyRing: ring, clock: clock, random: SystemRandomSource())
        minter = RefreshTokenMinter(store: storage.refreshTokens, tokens: tokens,
                                    derivationKey: SharedKeys.masterKey.refreshDerivationKey, defaultLifetime: 3600)
        try storage.users.insertUser(UserRecord(id: userID, email: "ada@example.com", emailVerified: true,
                                                createdAt: clock.now, updatedAt: clock.now))
    }

    var auditor: Auditor { Auditor(log: storage.audit, clock: clock) }

    var refreshGrant: RefreshTokenGrant {
        RefreshTokenGrant(users: storage.users, parts: grantParts(), graceSeconds: 30,
                          organizations: OrganizationSelection(store: storage.organizations))
    }

    var codeGrant: AuthorizationCodeGrant {
        AuthorizationCodeGrant(codes: storage.codes, users: storage.users, parts: grantParts(),
                               organizations: OrganizationSelection(store: storage.organizations))
    }

    /// The grants' shared parts, over `refreshTokens` (the store's by default).
    func grantParts(refreshTokens: (any RefreshTokenStore)? = nil) -> TokenGrantParts {
        TokenGrantParts(tokens: tokens, refreshTokens: refreshTokens ?? storage.refreshTokens, refreshMinter: minter, familyLifetime: 86_400,
                        responses: TokenResponseBuilder(issuer: issuer), auditor: auditor, clock: clock)
    }

    /// A public native client allowed `grants`.
    func client(_ id: String = "app", grants: [String] = ["authorization_code", "refresh_token"]) throws -> Client {
        try Client(record: record(id, grants: grants))
    }

    func record(_ id: String, grants: [String]) -> ClientRecord {
        ClientRecord(id: id, name: id, isPublic: true, redirectURIs: ["com.example.app:/cb"],
                     allowedScopes: ["openid", "offline_access"], grantTypes: grants, tokenEndpointAuthMethod: "none",
                     createdAt: clock.now, updatedAt: clock.now)
    }

    /// A stored code for `app`, as /authorize leaves it.
    func code(scope: String = "openid offline_access") throws -> String {
        let code = tokens.make(.code)
        try storage.codes.insertCode(AuthorizationCodeRecord(
            codeHash: tokens.hash(code),
            grantID: "grant-1",
            terms: GrantTerms(clientID: "app", userID: userID, scope: scope, amr: ["pwd"], authTime: clock.now),
            redirectURI: "com.example.app:/cb",
            codeChallenge: TokenFixture.challenge(TokenFixture.verifier),
            createdAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(60)))
        return code
    }

    static func parameters(_ pairs: [(String, String)]) -> RequestParameters {
        RequestParameters(pairs.map { (name: $0.0, value: $0.1) })
    }

    /// The OAuth error code `body` throws, nil when it throws none; any other error is a
    /// `server_error` here.
    static func errorCode(_ body: () throws -> Void) -> OAuthErrorCode? {
        do { try body() } catch let error as OAuthError { return error.code } catch { return .serverError }
        return nil
    }
}

/// Each grant handler on its own, with only its parts.
@Suite struct GrantHandlerTests {
    @Test func theCodeGrantRedeemsOnceAndAReplayRevokesTheFamily() throws {
        let parts = try GrantParts()
        let grant = parts.codeGrant
        let client = try parts.client()
        let code = try parts.code()
        let request = GrantParts.parameters([("code", code), ("redirect_uri", "com.example.app:/cb"),
                                             ("code_verifier", TokenFixture.verifier)])
        let response = try grant.handle(request, client: client)
        let refresh = try #require(response.refreshToken)
        #expect(response.idToken != nil)
        #expect(try parts.storage.refreshTokens.isGrantActive(id: "grant-1", now: parts.clock.now))

        // RFC 6749 §4.1.2: the replay is invalid_grant and revokes what the code issued.
        #expect(GrantParts.errorCode { _ = try grant.handle(request, client: client) } == .invalidGrant)
        #expect(try parts.storage.refreshTokens.isGrantActive(id: "grant-1", now: parts.clock.now) == false)
        #expect(try parts.storage.audit.recentAudit(limit: 5).contains { $0.event == "code_replay" })
        #expect(GrantParts.errorCode {
            _ = try parts.refreshGrant.handle(GrantParts.parameters([("refresh_token", refresh)]), client: client)
        } == .invalidGrant)
    }

    /// RFC 6749 §4.1.2: a refused redemption (here a wrong verifier) still uses the code up, so the
    /// right verifier afterwards is a replay; nothing of a family was stored.
    @Test func aRefusedRedemptionUsesTheCodeUp() throws {
        let parts = try GrantParts()
        let grant = parts.codeGrant
        let client = try parts.client()
        let code = try parts.code()
        #expect(GrantParts.errorCode {
            _ = try grant.handle(GrantParts.parameters([("code", code), ("redirect_uri", "com.example.app:/cb"),
                                                        ("code_verifier", String(repeating: "x", count: 43))]), client: client)
        } == .invalidGrant)
        #expect(try parts.storage.refreshTokens.grant(id: "grant-1") == nil)
        #expect(GrantParts.errorCode {
            _ = try grant.handle(GrantParts.parameters([("code", code), ("redirect_uri", "com.example.app:/cb"),
                                                        ("code_verifier", TokenFixture.verifier)]), client: client)
        } == .invalidGrant)
        #expect(try parts.storage.audit.recentAudit(limit: 5).contains { $0.event == "code_replay" })
        #expect(try parts.storage.refreshTokens.isGrantActive(id: "grant-1", now: parts.clock.now) == false)
    }

    /// A good code is redeemed with its family in one store call (one transaction, one commit):
    /// no separate consumption, no separate grant or token write.
    @Test func aGoodCodeIsRedeemedInOneWrite() throws {
        let parts = try GrantParts()
        let codes = CountingCodes(base: parts.storage.codes)
        let grant = AuthorizationCodeGrant(codes: codes, users: parts.storage.users, parts: parts.grantParts(),
                                           organizations: OrganizationSelection(store: parts.storage.organizations))
        let response = try grant.handle(GrantParts.parameters([
            ("code", try parts.code()), ("redirect_uri", "com.example.app:/cb"), ("code_verifier", TokenFixture.verifier)]),
            client: try parts.client())
        #expect(response.refreshToken != nil)
        #expect(codes.calls.withLock { $0 } == ["code", "redeemCode"])
        #expect(try parts.storage.refreshTokens.isGrantActive(id: "grant-1", now: parts.clock.now))
    }

    @Test func theRefreshGrantRotatesAndAReuseRevokesTheFamily() throws {
        let parts = try GrantParts()
        let client = try parts.client()
        let code = try parts.code()
        let first = try #require(try parts.codeGrant.handle(GrantParts.parameters([
            ("code", code), ("redirect_uri", "com.example.app:/cb"), ("code_verifier", TokenFixture.verifier)]), client: client).refreshToken)
        let grant = parts.refreshGrant
        let second = try #require(try grant.handle(GrantParts.parameters([("refresh_token", first)]), client: client).refreshToken)
        #expect(first.hasSuffix("grant-1") && second == parts.minter.successor(of: first, grantID: "grant-1"))
        parts.clock.advance(by: 31)   // past the grace window
        #expect(GrantParts.errorCode { _ = try grant.handle(GrantParts.parameters([("refresh_token", first)]), client: client) } == .invalidGrant)
        #expect(GrantParts.errorCode { _ = try grant.handle(GrantParts.parameters([("refresh_token", second)]), client: client) } == .invalidGrant)
        #expect(try parts.storage.audit.recentAudit(limit: 5).contains { $0.event == "refresh_token_reuse" })
    }

    /// A store failure inside a handler is `server_error`, its detail naming the grant.
    @Test func aStoreFailureIsServerErrorNamingTheGrant() throws {
        let parts = try GrantParts()
        let grant = RefreshTokenGrant(users: parts.storage.users, parts: parts.grantParts(refreshTokens: FailingRefreshTokens()),
                                      graceSeconds: 30, organizations: OrganizationSelection(store: parts.storage.organizations))
        let client = try parts.client()
        do throws(OAuthError) {
            _ = try grant.handle(GrantParts.parameters([("refresh_token", parts.tokens.make(.refresh))]), client: client)
            Issue.record("no error")
        } catch {
            #expect(error.code == .serverError)
            #expect(error.privateDetail?.hasPrefix("refresh_token: ") == true)
        }
    }
}

/// A code store that names each call it forwards.
final class CountingCodes: AuthorizationCodeStore {
    let base: any AuthorizationCodeStore
    let calls = Mutex<[String]>([])
    init(base: any AuthorizationCodeStore) { self.base = base }

    func insertCode(_ code: AuthorizationCodeRecord) throws {
        calls.withLock { $0.append("insertCode") }
        try base.insertCode(code)
    }
    func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption {
        calls.withLock { $0.append("consumeCode") }
        return try base.consumeCode(codeHash: codeHash, now: now)
    }
    func code(codeHash: [UInt8]) throws -> AuthorizationCodeRecord? {
        calls.withLock { $0.append("code") }
        return try base.code(codeHash: codeHash)
    }
    func redeemCode(codeHash: [UInt8], now: Date, grant: GrantRecord, firstToken: RefreshTokenRecord?) throws -> CodeConsumption {
        calls.withLock { $0.append("redeemCode") }
        return try base.redeemCode(codeHash: codeHash, now: now, grant: grant, firstToken: firstToken)
    }
    func deleteUnredeemedCodes(userID: String) throws -> Int {
        calls.withLock { $0.append("deleteUnredeemedCodes") }
        return try base.deleteUnredeemedCodes(userID: userID)
    }
}

/// The token endpoint's registry, with stand-in grants: what a new grant gets from the endpoint.
@Suite struct TokenEndpointRegistryTests {
    /// One inline grant: counts its calls, answers a fixed token.
    final class Counter: Sendable {
        let value = Mutex(0)
    }

    struct CountingGrant: GrantHandler {
        let calls = Counter()
        var grantType: GrantType { .refreshToken }
        var parameters: [String] { ["refresh_token", "scope", "resource"] }
        func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse {
            calls.value.withLock { $0 += 1 }
            return TokenResponse(accessToken: "inline-for-" + client.id, expiresIn: 60)
        }
    }

    /// One grant that needs the network.
    struct NetworkGrant: NetworkGrantHandler {
        var grantType: GrantType { .tokenExchange }
        var parameters: [String] { ["subject_token"] }
        func handleAsync(_ parameters: RequestParameters, client: Client) async throws(OAuthError) -> TokenResponse {
            TokenResponse(accessToken: "awaited-for-" + client.id, expiresIn: 60)
        }
    }

    final class Fixture: Sendable {
        let parts: GrantParts
        let grant = CountingGrant()
        let endpoint: TokenEndpoint

        init() throws {
            parts = try GrantParts()
            try parts.storage.clients.upsertClient(parts.record("app", grants: ["refresh_token", GrantType.tokenExchange.rawValue]))
            try parts.storage.clients.upsertClient(parts.record("coder", grants: ["authorization_code"]))
            let clients = ClientRegistry(store: parts.storage.clients, secretKey: SharedKeys.masterKey.tokenHashKey)
            endpoint = TokenEndpoint(clients: clients, grants: [grant, NetworkGrant()])
        }

        func inline(_ pairs: [(String, String)]) throws(OAuthError) -> TokenResponse? {
            try endpoint.handleInline(GrantParts.parameters(pairs), authorization: nil)
        }

        var calls: Int { grant.calls.value.withLock { $0 } }
    }

    @Test func theRegistryDispatchesByGrantTypeAndRefusesWhatIsNotRegistered() throws {
        let f = try Fixture()
        #expect(f.endpoint.grantTypes == [.refreshToken, .tokenExchange])
        #expect(try f.inline([("grant_type", "refresh_token"), ("client_id", "app")])?.accessToken == "inline-for-app")
        // Known to Signet, but not in this registry: RFC 6749 §5.2 unsupported_grant_type.
        #expect(GrantParts.errorCode { _ = try f.inline([("grant_type", "authorization_code"), ("client_id", "coder")]) }
                == .unsupportedGrantType)
        #expect(GrantParts.errorCode { _ = try f.inline([("grant_type", "password"), ("client_id", "app")]) } == .unsupportedGrantType)
        #expect(GrantParts.errorCode { _ = try f.inline([("client_id", "app")]) } == .invalidRequest)
        #expect(GrantParts.errorCode {
            _ = try f.inline([("grant_type", "refresh_token"), ("grant_type", "refresh_token"), ("client_id", "app")])
        } == .invalidRequest)
        // The client is authenticated and must be registered for the grant (RFC 6749 §5.2).
        #expect(GrantParts.errorCode { _ = try f.inline([("grant_type", "refresh_token"), ("client_id", "ghost")]) } == .invalidClient)
        #expect(GrantParts.errorCode { _ = try f.inline([("grant_type", "refresh_token"), ("client_id", "coder")]) } == .unauthorizedClient)
        #expect(f.calls == 1)
    }

    /// RFC 6749 §3.2: a parameter of the grant's allow-list given twice is invalid_request before
    /// the grant runs; an unknown parameter is ignored, even repeated; `resource` may repeat
    /// (RFC 8707 §2).
    @Test func repeatsOfTheAllowListAreRefusedAndUnknownParametersIgnored() throws {
        let f = try Fixture()
        let base = [("grant_type", "refresh_token"), ("client_id", "app")]
        for name in ["refresh_token", "scope"] {
            #expect(GrantParts.errorCode { _ = try f.inline(base + [(name, "a"), (name, "b")]) } == .invalidRequest)
        }
        #expect(f.calls == 0)
        #expect(try f.inline(base + [("unknown", "a"), ("unknown", "b"), ("code", "x"), ("code", "y")]) != nil)
        #expect(try f.inline(base + [("resource", "https://a.example"), ("resource", "https://b.example")]) != nil)
        #expect(f.calls == 2)
    }

    /// The endpoint, not the caller, says which requests are suspended: a grant that needs the
    /// network is declined inline and runs through handleAsync.
    @Test func aNetworkGrantIsDeclinedInlineAndRunsAwaited() async throws {
        let f = try Fixture()
        let exchange = [("grant_type", GrantType.tokenExchange.rawValue), ("client_id", "app")]
        #expect(try f.inline(exchange) == nil)
        let awaited = try await f.endpoint.handleAsync(GrantParts.parameters(exchange), authorization: nil)
        #expect(awaited.accessToken == "awaited-for-app")
        let inline = try await f.endpoint.handleAsync(GrantParts.parameters([("grant_type", "refresh_token"), ("client_id", "app")]),
                                                      authorization: nil)
        #expect(inline.accessToken == "inline-for-app")
        // A request refused before its grant is known is answered inline.
        #expect(GrantParts.errorCode { _ = try f.inline([("client_id", "app")]) } == .invalidRequest)
    }

    @Test func theFirstHandlerOfAGrantTypeWins() throws {
        let f = try Fixture()
        let endpoint = TokenEndpoint(clients: ClientRegistry(store: f.parts.storage.clients, secretKey: [1]),
                                     grants: [f.grant, CountingGrant(), NetworkGrant()])
        #expect(endpoint.grantTypes == [.refreshToken, .tokenExchange])
        _ = try endpoint.handleInline(GrantParts.parameters([("grant_type", "refresh_token"), ("client_id", "app")]), authorization: nil)
        #expect(f.calls == 1)
    }
}

/// A refresh token store whose every call fails, as a database that went away.
struct FailingRefreshTokens: RefreshTokenStore {
    struct Down: Error {}
    func createGrant(_ grant: GrantRecord) throws { throw Down() }
    func grant(id: String) throws -> GrantRecord? { throw Down() }
    func isGrantActive(id: String, now: Date) throws -> Bool { throw Down() }
    func insertRefreshToken(_ token: RefreshTokenRecord) throws { throw Down() }
    func refreshToken(hash: [UInt8], grantID: String?) throws -> RefreshTokenRecord? { throw Down() }
    func rotateRefreshToken(tokenHash: [UInt8], grantID: String?, clientID: String, successorHash: [UInt8], successorExpiresAt: Date, now: Date,
                            graceSeconds: Int) throws -> RotationResult { throw Down() }
    func revokeGrant(id: String, reason: String, now: Date) throws -> Bool { throw Down() }
    func revokeGrant(issuedFrom code: AuthorizationCodeRecord, reason: String, now: Date) throws { throw Down() }
    func activeRefreshGrants(userID: String, now: Date) throws -> [GrantRecord] { throw Down() }
    func revokeGrants(userID: String, reason: String, now: Date) throws -> Int { throw Down() }
    func revokeGrants(sessionID: String, reason: String, now: Date) throws -> Int { throw Down() }
    func revokeGrants(userID: String, organizationID: String, reason: String, now: Date) throws -> Int { throw Down() }
    func revokeGrants(organizationID: String, reason: String, now: Date) throws -> Int { throw Down() }
}
