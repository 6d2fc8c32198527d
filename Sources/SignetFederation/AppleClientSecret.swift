import Foundation
import SignetCrypto
import SignetJOSE
import Synchronization

/// The client secret Sign in with Apple requires: an ES256 JWT signed with the team's p8 key,
/// with `iss` = team id, `sub` = the Services ID (client id), `aud` = https://appleid.apple.com,
/// `iat`, `exp` (Apple accepts at most 6 months) and the key id in the `kid` header.
///
/// The secret is cached and minted again when less than `renewBefore` remains.
public final class AppleClientSecret: Sendable {
    /// Apple's audience for client secrets.
    public static let audience = "https://appleid.apple.com"
    /// Apple's maximum lifetime of a client secret: 15777000 seconds (about 6 months).
    public static let maximumLifetime: TimeInterval = 15_777_000

    private let signer: JWSSigner
    private let teamID: String
    private let clientID: String
    private let lifetime: TimeInterval
    private let renewBefore: TimeInterval
    private let clock: @Sendable () -> Date
    private let cached = Mutex<(token: String, expiresAt: Date)?>(nil)

    /// Loads the p8 key (PKCS #8 PEM, P-256). `lifetime` is capped at Apple's maximum.
    public init(teamID: String, keyID: String, clientID: String, privateKeyPEM: String,
                lifetime: TimeInterval = 86_400 * 180, renewBefore: TimeInterval = 86_400,
                clock: @escaping @Sendable () -> Date = { Date() }) throws(FederationError) {
        let pem = try PEMDocument(parsing: privateKeyPEM)
        guard pem.label == "PRIVATE KEY" else { throw .misconfigured("the Apple key must be a PKCS #8 PEM (BEGIN PRIVATE KEY)") }
        let key: PrivateKey
        do { key = try PrivateKey(pkcs8DER: pem.der) } catch { throw .misconfigured("the Apple key cannot be read") }
        guard key.type == .p256 else { throw .misconfigured("the Apple key must be a P-256 key") }
        do { signer = try JWSSigner(key: key, keyID: keyID, algorithm: .es256) } catch {
            throw .misconfigured("the Apple key cannot sign ES256")
        }
        self.teamID = teamID
        self.clientID = clientID
        self.lifetime = min(lifetime, Self.maximumLifetime)
        self.renewBefore = renewBefore
        self.clock = clock
    }

    /// The current secret, minted again when it is missing or expires within `renewBefore`.
    public func current() throws(FederationError) -> String {
        let now = clock()
        if let existing = cached.withLock({ $0 }), existing.expiresAt.timeIntervalSince(now) > renewBefore { return existing.token }
        let expiresAt = now.addingTimeInterval(lifetime)
        let claims = JWTClaims([
            "iss": .string(teamID), "sub": .string(clientID), "aud": .string(Self.audience),
            "iat": .int(Int64(now.timeIntervalSince1970)), "exp": .int(Int64(expiresAt.timeIntervalSince1970)),
        ])
        let token: String
        do { token = try signer.signJWT(claims, type: nil) } catch { throw .misconfigured("the Apple client secret cannot be signed") }
        cached.withLock { $0 = (token, expiresAt) }
        return token
    }
}
