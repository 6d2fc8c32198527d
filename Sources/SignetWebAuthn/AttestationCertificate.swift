import SignetCrypto

/// The leaf certificate of a `packed` attestation's `x5c`, with the facts §8.2.1 asks about.
struct AttestationCertificate {
    /// Its public key.
    let publicKey: PublicKey
    /// The id-fido-gen-ce-aaguid extension's value, when present.
    let aaguid: [UInt8]?

    /// Parses `der` and checks W3C WebAuthn §8.2.1 ("Certificate Requirements for Packed
    /// Attestation Statements"): version 3; subject C, O, OU "Authenticator Attestation" and CN;
    /// basic constraints CA false; an AAGUID extension, if present, not critical.
    init(der: [UInt8]) throws(WebAuthnError) {
        self = try Self.read(der)
    }

    init(publicKey: PublicKey, aaguid: [UInt8]?) {
        self.publicKey = publicKey
        self.aaguid = aaguid
    }
}
