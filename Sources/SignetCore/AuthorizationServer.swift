import Foundation
import SignetCrypto
import SignetJOSE
import SignetStore
import SignetWire

/// The authorization server's wiring: the shared parts (policy, store, clients, tokens, keys,
/// clock, random source), from which it builds the grants and endpoints. They take only the
/// stores and services they use, never the server itself, so a test can build any of them alone;
/// their `init(server:)` initializers take their parts from here.
///
/// It opens no socket and reads no clock or random source directly; all of them are injected.
public final class AuthorizationServer: Sendable {
    /// Lifetimes, algorithms and the issuer.
    public let policy: ServerPolicy
    /// The store, for wiring: each part gets only its facets.
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
    /// The audit log with the clock.
    public let auditor: Auditor
    /// Refresh token strings: first tokens and successors.
    public let refreshMinter: RefreshTokenMinter
    /// Verifiers for the JWTs this server signs.
    public let ownTokens: OwnTokenVerification
    /// What the grants that issue refresh-token families share.
    let grantParts: TokenGrantParts

    /// Assembles the server. `auditObserver` is told the name of every audit event (metrics);
    /// `auditContext` gives each audit event its caller (see `Auditor`). `builtInClients` are
    /// answered besides the account page's client (the console's, `ConsoleClient`).
    public init(policy: ServerPolicy, storage: any SignetStorage, masterKey: MasterKey, keyRing: SigningKeyRing,
                clock: any Clock, random: any RandomSource, auditObserver: (@Sendable (String) -> Void)? = nil,
                auditContext: @escaping @Sendable () -> AuditContext? = { AuditContext.current },
                builtInClients: [Client] = []) {
        self.policy = policy
        self.storage = storage
        self.keyRing = keyRing
        self.clock = clock
        self.random = random
        self.tokens = OpaqueTokens(hashKey: masterKey.tokenHashKey, random: random)
        self.clients = ClientRegistry(store: storage.clients, secretKey: masterKey.tokenHashKey,
                                      builtIn: (AccountClient.client(issuer: policy.issuer).map { [$0] } ?? []) + builtInClients)
        self.issuer = TokenIssuer(policy: policy, keyRing: keyRing, clock: clock, random: random)
        self.auditor = Auditor(log: storage.audit, clock: clock, observer: auditObserver, context: auditContext)
        self.refreshMinter = RefreshTokenMinter(store: storage.refreshTokens, tokens: tokens,
                                                derivationKey: masterKey.refreshDerivationKey,
                                                defaultLifetime: policy.refreshTokenLifetime)
        self.ownTokens = OwnTokenVerification(keyRing: keyRing, issuer: policy.issuer, clock: clock)
        self.grantParts = TokenGrantParts(tokens: tokens, refreshTokens: storage.refreshTokens, refreshMinter: refreshMinter,
                                          familyLifetime: policy.refreshFamilyLifetime, responses: TokenResponseBuilder(issuer: issuer),
                                          auditor: auditor, clock: clock)
    }

    /// A new random identifier (grant ids, user ids): 128 bits, base64url.
    public func newIdentifier() -> String { random.identifier() }

    /// Records an audit event; a failure to record is logged by the caller, never fatal.
    public func audit(_ event: String, actor: String? = nil, subject: String? = nil, client: String? = nil,
                      method: String? = nil, reason: String? = nil, detail: [String: JSONValue] = [:]) {
        auditor.record(event, actor: actor, subject: subject, client: client, method: method, reason: reason, detail: detail)
    }

    /// A verifier for Signet's own tokens with the current published keys.
    func verifier(types: Set<String>?, audience: String?, requireExp: Bool = true) throws -> JWTVerifier {
        try ownTokens.verifier(types: types, audience: audience, requireExp: requireExp)
    }

    /// The token endpoint's registry: one line per grant type, in the order discovery lists them.
    /// Without `nativeSignIn` the token exchange is not registered.
    func grantHandlers(nativeSignIn: NativeSignInParts?) -> [any GrantHandler] {
        var grants: [any GrantHandler] = [
            AuthorizationCodeGrant(server: self),
            RefreshTokenGrant(server: self),
            ClientCredentialsGrant(server: self),
        ]
        if let nativeSignIn { grants.append(TokenExchangeGrant(server: self, verifier: nativeSignIn.verifier, gate: nativeSignIn.gate)) }
        return grants
    }

    var responses: TokenResponseBuilder { TokenResponseBuilder(issuer: issuer) }

}
