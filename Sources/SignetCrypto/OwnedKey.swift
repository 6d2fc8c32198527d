import CLibCrypto

/// What `PrivateKey` and `PublicKey` share: an owned `EVP_PKEY` of a classified type, freed in
/// `deinit`, with a prepared `SignatureContext` for each algorithm that fits it.
final class OwnedKey: @unchecked Sendable {
    /// The `EVP_PKEY`.
    let pkey: OpaquePointer
    /// The kind of key.
    let type: KeyType
    private let contexts: [SignatureAlgorithm: SignatureContext]

    /// Takes ownership of `pkey`, which must already have been classified as `type` (freed when
    /// this value goes, also when the key that holds it fails to initialise).
    init(owning pkey: OpaquePointer, type: KeyType, operation: SignatureContext.Operation) {
        self.pkey = pkey
        self.type = type
        contexts = SignatureContext.all(pkey: pkey, type: type, operation: operation)
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// The context for `algorithm`, or nil when the algorithm does not fit the key type.
    func context(for algorithm: SignatureAlgorithm) -> SignatureContext? {
        algorithm.fits(type) ? contexts[algorithm] : nil
    }
}
