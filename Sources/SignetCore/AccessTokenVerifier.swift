import Foundation
import SignetJOSE
import Synchronization

/// Verifies Signet's own RFC 9068 access tokens (`typ: at+jwt`): signature with a published key,
/// `iss`, `exp`, and optionally an audience.
///
/// The `JWTVerifier` is built once per set of published keys, not per request: the key ids are
/// compared on each call (a handful of strings) and the verifier is rebuilt only when they change.
public final class AccessTokenVerifier: Sendable {
    private struct Cached: Sendable {
        var keyIDs: [String] = []
        var verifier: JWTVerifier?
    }

    private let server: AuthorizationServer
    private let audience: String?
    private let cache = Mutex(Cached())

    /// A verifier for tokens whose `aud` contains `audience` (nil: any audience).
    public init(server: AuthorizationServer, audience: String?) {
        self.server = server
        self.audience = audience
    }

    /// The verified token, or the JOSE reason it was refused.
    public func verify(_ token: String) throws -> VerifiedJWT {
        try current().verify(token)
    }

    private func current() throws -> JWTVerifier {
        let keys = server.keyRing.verificationKeys
        let ids = keys.map(\.keyID)
        if let verifier = cache.withLock({ $0.keyIDs == ids ? $0.verifier : nil }) { return verifier }
        let verifier = try server.verifier(types: ["at+jwt"], audience: audience)
        cache.withLock { $0 = Cached(keyIDs: ids, verifier: verifier) }
        return verifier
    }
}
