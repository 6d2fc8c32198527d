import Foundation
import SignetSync
import SignetJOSE

/// Verifies Signet's own RFC 9068 access tokens (`typ: at+jwt`): signature with a published key,
/// `iss`, `exp`, and optionally an audience.
///
/// Two things keep this cheap on the hot path (`/userinfo`):
/// - the `JWTVerifier` is built once per set of published keys, not per request: the key ids
///   are compared on each call and the verifier is rebuilt only when they change;
/// - a token string that verified once is remembered until it expires, so a client presenting the
///   same token again costs a dictionary lookup instead of a signature check. The memory is
///   bounded (cleared when full) and dropped whenever the published keys change, so a token whose
///   key was unpublished is verified again, and refused. Revocation is NOT cached: callers check
///   the grant on every request.
public final class AccessTokenVerifier: Sendable {
    private struct State: Sendable {
        var keyIDs: [String] = []
        var verifier: JWTVerifier?
        var verified: [TokenString: Remembered] = [:]
    }

    /// A remembered token string: compared whole, hashed by its last 32 bytes only, which lie in
    /// its signature, where any two tokens differ (hashing the whole 600-byte string was 3 % of a
    /// userinfo request's instructions, bench/README.md "Session 15 (lead)"). Equal strings have
    /// equal ends, so equal keys hash alike; and only verified tokens are kept, so nobody can fill
    /// the table with strings that share an end.
    private struct TokenString: Hashable, Sendable {
        let text: String

        static func == (a: TokenString, b: TokenString) -> Bool { a.text == b.text }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { bytes in hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(32)))) }
        }
    }

    private struct Remembered: Sendable {
        let jwt: VerifiedJWT
        let usableUntil: Date
    }

    private let ownTokens: OwnTokenVerification
    private let audience: String?
    private let state = ThreadMutex(State())
    /// The most token strings remembered at once.
    static let capacity = 20_000
    /// The `exp` leeway of `OwnTokenVerification.verifier`.
    static let leeway: TimeInterval = 30

    /// A verifier for tokens whose `aud` contains `audience` (nil: any audience).
    public init(ownTokens: OwnTokenVerification, audience: String?) {
        self.ownTokens = ownTokens
        self.audience = audience
    }

    /// A verifier with the server's keys, issuer and clock.
    public convenience init(server: AuthorizationServer, audience: String?) {
        self.init(ownTokens: server.ownTokens, audience: audience)
    }

    /// The verified token, or the JOSE reason it was refused.
    public func verify(_ token: String) throws -> VerifiedJWT {
        let ids = ownTokens.keyRing.verificationKeys.map(\.keyID)
        let now = ownTokens.clock.now
        let (verifier, hit) = state.withLock { state -> (JWTVerifier?, VerifiedJWT?) in
            guard state.keyIDs == ids, let verifier = state.verifier else { return (nil, nil) }
            if let remembered = state.verified[TokenString(text: token)], now < remembered.usableUntil { return (verifier, remembered.jwt) }
            return (verifier, nil)
        }
        if let hit { return hit }
        let current: JWTVerifier
        if let verifier {
            current = verifier
        } else {
            current = try ownTokens.verifier(types: ["at+jwt"], audience: audience)
            state.withLock { $0 = State(keyIDs: ids, verifier: current) }
        }
        let jwt = try current.verify(token)
        // Only tokens with an expiry are remembered, and never past it.
        if let exp = jwt.claims.exp {
            state.withLock { state in
                guard state.keyIDs == ids else { return }
                if state.verified.count >= Self.capacity { state.verified.removeAll(keepingCapacity: true) }
                state.verified[TokenString(text: token)] = Remembered(jwt: jwt, usableUntil: exp.addingTimeInterval(Self.leeway))
            }
        }
        return jwt
    }
}
