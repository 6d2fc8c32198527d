import SignetCrypto
import SignetJOSE

/// The keys of a `MockProvider`: one RS256 and one ES256 signer (both published) and an
/// unpublished RSA key for forgeries.
struct MockProviderKeys: Sendable {
    let generation: Int
    let rsa: JWSSigner
    let ec: JWSSigner
    let unpublished: PrivateKey

    init(generation: Int) throws {
        self.generation = generation
        rsa = try JWSSigner(key: PrivateKey.generate(.rsa(bits: 2048)), keyID: "mock-rs-\(generation)", algorithm: .rs256)
        ec = try JWSSigner(key: PrivateKey.generate(.p256), keyID: "mock-es-\(generation)", algorithm: .es256)
        unpublished = try PrivateKey.generate(.rsa(bits: 2048))
    }

    var publishedSet: JWKSet {
        JWKSet(keys: [try? rsa.publicJWK(), try? ec.publicJWK()].compactMap { $0 })
    }
}
