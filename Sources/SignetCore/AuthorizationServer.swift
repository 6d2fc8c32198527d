import Foundation
import SignetCrypto
import SignetJOSE
import SignetStore
import SignetWire

/// The authorization server as pure logic: everything the endpoints share.
///
/// It opens no socket and reads no clock or random source directly; all of them are injected.
public final class AuthorizationServer: Sendable {
    /// Lifetimes, algorithms and the issuer.
    public let policy: ServerPolicy
    /// The store.
    public let storage: any SignetStorage
    /// Registered clients.
    public let clients: ClientRegistry
    /// Opaque tokens and their hashes.
    public let tokens: OpaqueTokens
    /// JWT minting.
    public let issuer: TokenIssuer
    /// Signing keys.
    public let keyRing: SigningKeyRing
    /// The clock.
    public let clock: any Clock
    /// The random source.
    public let random: any RandomSource
    let refreshDerivationKey: [UInt8]

    /// Assembles the server.
    public init(policy: ServerPolicy, storage: any SignetStorage, masterKey: MasterKey, keyRing: SigningKeyRing,
                clock: any Clock, random: any RandomSource) {
        self.policy = policy
        self.storage = storage
        self.keyRing = keyRing
        self.clock = clock
        self.random = random
        self.tokens = OpaqueTokens(hashKey: masterKey.tokenHashKey, random: random)
        self.clients = ClientRegistry(store: storage.clients, secretKey: masterKey.tokenHashKey)
        self.issuer = TokenIssuer(policy: policy, keyRing: keyRing, clock: clock, random: random)
        self.refreshDerivationKey = masterKey.refreshDerivationKey
    }

    /// A new random identifier (grant ids, user ids): 128 bits, base64url.
    public func newIdentifier() -> String { Base64URL.encode(random.bytes(16)) }

    /// Records an audit event; a failure to record is logged by the caller, never fatal.
    public func audit(_ event: String, subject: String? = nil, client: String? = nil, detail: [String: JSONValue] = [:]) {
        _ = try? storage.audit.appendAudit(AuditEvent(event: event, subjectID: subject, clientID: client,
                                                      detail: JSONValue.object(detail).serializedString(), at: clock.now))
    }

    /// The successor of a refresh token: derived from the presented token, so a retry inside the
    /// grace window yields the same string while only hashes are stored.
    func refreshSuccessor(of presented: String) -> String {
        OpaqueTokens.Kind.refresh.rawValue + "_" + Base64URL.encode(HMAC.sha256(key: refreshDerivationKey, message: Array(presented.utf8)))
    }

    /// A verifier for Signet's own tokens with the current published keys.
    func verifier(types: Set<String>?, audience: String?, requireExp: Bool = true) throws -> JWTVerifier {
        let clock = self.clock
        return try JWTVerifier(keys: keyRing.verificationKeys,
                               policy: VerificationPolicy(issuer: policy.issuer, audience: audience, allowedTypes: types,
                                                          leeway: 30, requireExp: requireExp, clock: { clock.now }))
    }

    /// The first refresh token of a new grant family (code redemption, token exchange): only for
    /// `offline_access` and clients allowed the refresh grant; it expires with the client's (or
    /// the policy's) refresh lifetime, never after the family.
    func issueFirstRefreshToken(grant: GrantRecord, client: Client, scope: Scope, now: Date) throws -> String? {
        guard scope.contains(Scope.offlineAccess), client.grantTypes.contains(.refreshToken) else { return nil }
        let token = tokens.make(.refresh)
        let lifetime = TimeInterval(client.refreshTokenLifetime ?? policy.refreshTokenLifetime)
        try storage.refreshTokens.insertRefreshToken(RefreshTokenRecord(
            tokenHash: tokens.hash(token), grantID: grant.grantID, scope: grant.scope, createdAt: now,
            expiresAt: min(now.addingTimeInterval(lifetime), grant.absoluteExpiresAt)))
        return token
    }
}
