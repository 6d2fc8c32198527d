import Foundation
import SignetClientCore
import SignetCore
import SignetFederation
import SignetWire
import Synchronization

/// SignetServer's `NativeIDTokenVerifier`: the configured connections, each with its provider
/// metadata (discovery, fetched once) and a `JWKSCache`, and SignetClientCore's
/// `IDTokenValidator` with `aud` ∈ the connection's `native_client_ids`.
public final class NativeSignInVerifier: NativeIDTokenVerifier {
    private let connections: [String: Connection]
    private let http: OutboundHTTP
    private let clock: any Clock
    private let caches = Mutex<[String: JWKSCache]>([:])

    /// Creates the verifier over the configured connections.
    public init(connections: [Connection], clock: any Clock, http: OutboundHTTP = OutboundHTTP()) {
        var byID: [String: Connection] = [:]
        for connection in connections { byID[connection.id] = connection }
        self.connections = byID
        self.http = http
        self.clock = clock
    }

    /// The connection's native sign-in view (Apple connections carry the hashed nonce form).
    public func connection(id: String) -> NativeSignInConnection? {
        guard let connection = connections[id], connection.type.isOpenID else { return nil }
        return NativeSignInConnection(id: connection.id, nonceForm: connection.type == .apple ? .sha256Hex : .raw,
                                      enabled: connection.enabled, nativeSignIn: connection.nativeSignIn,
                                      allowLinking: connection.allowLinking)
    }

    /// Verifies the token with the connection's keys and native audiences.
    public func verify(_ idToken: String, connection native: NativeSignInConnection) async throws(OAuthError)
        -> (identity: UpstreamIdentity, nonce: String) {
        guard let connection = connections[native.id], !connection.nativeClientIDs.isEmpty else {
            throw OAuthError.invalidGrant("The connection does not accept native sign-in.", detail: "no native_client_ids")
        }
        let keys = try await keySource(for: connection)
        let clock = self.clock
        var policy = IDTokenPolicy(issuer: connection.issuer, audiences: Set(connection.nativeClientIDs), nonce: .required,
                                   clock: { clock.now })
        // Google documents both forms of its issuer (OpenID Connect on Google, "Validate an ID token").
        if connection.type == .google, connection.issuer == "https://accounts.google.com" {
            policy.issuerAliases = ["accounts.google.com"]
        }
        let validated: ValidatedIDToken
        do {
            validated = try await IDTokenValidator(policy: policy, keys: keys).validate(idToken)
        } catch {
            throw Self.oauthError(error, connectionID: connection.id)
        }
        guard let nonce = validated.nonce else { throw OAuthError.invalidGrant("The ID token has no nonce.") }
        // The browser callback's rules exactly: email_verified's form, hosted_domain, allowed_email_domains.
        let upstream: UpstreamIdentity
        do throws(FederationError) {
            upstream = try connection.identity(from: validated)
            try connection.checkPolicy(upstream)
        } catch {
            throw OAuthError.invalidGrant(error.publicMessage, detail: "connection \(connection.id): \(error)")
        }
        return (identity: upstream, nonce: nonce)
    }

    /// The shared client, or one trusting the connection's private CA.
    private func http(for connection: Connection) -> OutboundHTTP {
        guard let file = connection.trustedCertificatesFile else { return http }
        return OutboundHTTP(timeLimit: http.timeLimit, sizeLimit: http.sizeLimit, userAgent: http.userAgent, trustedCertificatesFile: file)
    }

    /// The connection's key cache, created after discovery on first use. A failed discovery is
    /// not cached (the next request tries again).
    private func keySource(for connection: Connection) async throws(OAuthError) -> JWKSCache {
        if let cache = caches.withLock({ $0[connection.id] }) { return cache }
        let metadata: ProviderMetadata
        do {
            metadata = try await DiscoveryClient.fetch(issuer: connection.issuer,
                                                       discoveryURL: connection.discoveryDocumentURL, http: http(for: connection))
        } catch {
            Log.error("native sign-in: discovery for connection \(connection.id) failed: \(error)")
            throw OAuthError(.temporarilyUnavailable, "The identity provider cannot be reached; try again later.",
                             detail: "discovery: \(error)")
        }
        let clock = self.clock
        let fresh = JWKSCache(jwksURI: metadata.jwksURI, http: http(for: connection), clock: { clock.now })
        return caches.withLock { table in
            if let existing = table[connection.id] { return existing }
            table[connection.id] = fresh
            return fresh
        }
    }

    /// Every defect of the token is `invalid_grant` (with a public reason that reflects nothing
    /// from the token); an unreachable key set is `temporarily_unavailable`.
    static func oauthError(_ error: IDTokenError, connectionID: String) -> OAuthError {
        let detail = "connection \(connectionID): \(error)"
        switch error {
        case .key(.unavailable), .key(.invalidKeySet):
            return OAuthError(.temporarilyUnavailable, "The identity provider's keys cannot be fetched; try again later.", detail: detail)
        case .key(.unknownKeyID):
            return .invalidGrant("The ID token is signed with an unknown key.", detail: detail)
        case .jose(.badSignature):
            return .invalidGrant("The ID token signature is invalid.", detail: detail)
        case .jose(.algorithmNone), .algorithmNotAllowed:
            return .invalidGrant("The ID token's signature algorithm is not accepted.", detail: detail)
        case .expired:
            return .invalidGrant("The ID token has expired.", detail: detail)
        case .wrongIssuer:
            return .invalidGrant("The ID token was issued by another issuer.", detail: detail)
        case .wrongAudience, .wrongAuthorizedParty:
            return .invalidGrant("The ID token was issued for another application.", detail: detail)
        case .missingNonce, .nonceMismatch:
            return .invalidGrant("The ID token carries no valid nonce.", detail: detail)
        default:
            return .invalidGrant("The ID token is invalid.", detail: detail)
        }
    }
}
