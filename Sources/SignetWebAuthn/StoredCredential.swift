import SignetCrypto

/// What the caller stored about a credential, as an assertion needs it.
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

    /// A stored credential.
    public init(id: [UInt8], userHandle: [UInt8], publicKey: COSEKey, signCount: UInt32, backupEligible: Bool) {
        self.id = id
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}
