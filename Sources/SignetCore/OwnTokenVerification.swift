import Foundation
import SignetJOSE
import SignetMacros

/// Verifiers for the JWTs this server signs: its published keys, its issuer, its clock.
@MemberwiseInit
public struct OwnTokenVerification: Sendable {
    /// The published keys.
    public let keyRing: SigningKeyRing
    /// `iss`, exactly.
    public let issuer: String
    /// The time `exp` is checked against.
    public let clock: any Clock

    /// A verifier with the current published keys, 30 s of leeway, for tokens of `types`
    /// (nil: any) whose `aud` contains `audience` (nil: any).
    func verifier(types: Set<String>?, audience: String?, requireExp: Bool = true) throws -> JWTVerifier {
        let clock = self.clock
        return try JWTVerifier(keys: keyRing.verificationKeys,
                               policy: VerificationPolicy(issuer: issuer, audience: audience, allowedTypes: types,
                                                          leeway: 30, requireExp: requireExp, clock: { clock.now }))
    }
}
