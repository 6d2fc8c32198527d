import SignetCrypto
import SignetMacros

/// What the caller stored about a credential, as an assertion needs it.
@MemberwiseInit
public struct StoredCredential: Sendable, Hashable {
    /// The credential id.
    public let id: [UInt8]
    /// The user handle (`user.id`) the credential was registered for.
    public let userHandle: [UInt8]
    /// The credential public key.
    public let publicKey: COSEKey
    /// The last signature counter seen.
    public let signCount: UInt32
    /// BE as registered.
    public let backupEligible: Bool
}
