import Foundation
import SignetJOSE

/// Verifiers for the JWTs this server signs: its published keys, its issuer, its clock.
public struct OwnTokenVerification: Sendable {
    /// The published keys.
    public let keyRing: SigningKeyRing
    /// `iss`, exactly.
    public let issuer: String
    /// The time `exp` is checked against.
    public let clock: any Clock

    /// Creates the factory.
    public init(keyRing: SigningKeyRing, issuer: String, clock: any Clock) {
        self.keyRing = keyRing
        self.issuer = issuer
        self.clock = clock
    }

    /// A verifier with the current published keys, 30 s of leeway, for tokens of `types`
    /// (nil: any) whose `aud` contains `audience` (nil: any).
    func verifier(types: Set<String>?, audience: String?, requireExp: Bool = true) throws -> JWTVerifier {
        let clock = self.clock
        return try JWTVerifier(keys: keyRing.verificationKeys,
                               policy: VerificationPolicy(issuer: issuer, audience: audience, allowedTypes: types,
                                                          leeway: 30, requireExp: requireExp, clock: { clock.now }))
    }
}
