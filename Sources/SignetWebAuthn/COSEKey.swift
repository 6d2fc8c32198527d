import SignetCrypto

/// A credential public key in COSE_Key form (RFC 9052 §7, RFC 9053, RFC 8230), parsed and checked.
///
/// Accepted: EC2 P-256 with ES256, OKP Ed25519 with EdDSA, RSA (at least 2048 bits) with RS256.
/// Refused: any other key type, curve or algorithm, a missing `alg` (§6.5.1.1), a parameter
/// outside the key type's public parameters (a private key part included), coordinates of the
/// wrong length, a point not on the curve.
public struct COSEKey: Sendable, Hashable {
    /// The algorithm the key is pinned to.
    public let algorithm: COSEAlgorithm
    /// The key, ready to verify.
    public let publicKey: PublicKey
    /// The COSE_Key bytes exactly as the authenticator encoded them (what a store keeps).
    public let bytes: [UInt8]

    /// Parses COSE_Key bytes (all of them).
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        try self.init(value: CBORValue.decode(bytes, field: "credentialPublicKey"), bytes: bytes)
    }

    /// Checks an already decoded COSE_Key whose encoding was `bytes`.
    init(value: CBORValue, bytes: [UInt8]) throws(WebAuthnError) {
        guard let entries = value.mapValue else { throw .invalidPublicKey("not a CBOR map") }
        var labels: [Int64: CBORValue] = [:]
        for entry in entries {
            guard let label = entry.key.int64Value else { throw .invalidPublicKey("a label that is not an integer") }
            labels[label] = entry.value
        }
        guard let alg = labels[3]?.int64Value else { throw .invalidPublicKey("no alg (3)") }
        guard let algorithm = COSEAlgorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        guard let kty = labels[1]?.int64Value else { throw .invalidPublicKey("no kty (1)") }
        func parameter(_ label: Int64, _ name: String) throws(WebAuthnError) -> [UInt8] {
            guard let value = labels[label]?.bytesValue else { throw .invalidPublicKey("no \(name) (\(label)) byte string") }
            return value
        }
        func onlyLabels(_ allowed: Set<Int64>) throws(WebAuthnError) {
            // kty, kid, alg, and the key type's public parameters; a private part (-4 for EC2/OKP,
            // -3 for RSA) or anything else is refused.
            if let extra = labels.keys.sorted().first(where: { !allowed.union([1, 2, 3]).contains($0) }) {
                throw .invalidPublicKey("unexpected parameter \(extra)")
            }
        }
        let key: PublicKey
        do {
            switch algorithm {
            case .es256:
                // RFC 9053 §7.1.1: kty EC2 (2), crv P-256 (1), x (-2) and y (-3) of 32 bytes.
                guard kty == 2 else { throw WebAuthnError.invalidPublicKey("ES256 needs kty EC2 (2), not \(kty)") }
                guard labels[-1]?.int64Value == 1 else { throw WebAuthnError.invalidPublicKey("ES256 needs crv P-256 (1)") }
                try onlyLabels([-1, -2, -3])
                let x = try parameter(-2, "x"), y = try parameter(-3, "y")
                guard x.count == 32, y.count == 32 else { throw WebAuthnError.invalidPublicKey("P-256 coordinates must be 32 bytes") }
                key = try PublicKey(p256X: x, y: y)
            case .edDSA:
                // RFC 9053 §7.2: kty OKP (1), crv Ed25519 (6), x (-2) of 32 bytes.
                guard kty == 1 else { throw WebAuthnError.invalidPublicKey("EdDSA needs kty OKP (1), not \(kty)") }
                guard labels[-1]?.int64Value == 6 else { throw WebAuthnError.invalidPublicKey("EdDSA needs crv Ed25519 (6)") }
                try onlyLabels([-1, -2])
                let x = try parameter(-2, "x")
                guard x.count == 32 else { throw WebAuthnError.invalidPublicKey("an Ed25519 key must be 32 bytes") }
                key = try PublicKey(ed25519: x)
            case .rs256:
                // RFC 8230 §4: kty RSA (3), n (-1), e (-2).
                guard kty == 3 else { throw WebAuthnError.invalidPublicKey("RS256 needs kty RSA (3), not \(kty)") }
                try onlyLabels([-1, -2])
                let n = try parameter(-1, "n"), e = try parameter(-2, "e")
                guard n.first != 0, e.first != 0 else { throw WebAuthnError.invalidPublicKey("RSA integers with a leading zero byte") }
                key = try PublicKey(rsaModulus: n, exponent: e)
                guard case .rsa(let bits) = key.type, bits >= KeyType.minimumRSABits else {
                    throw WebAuthnError.invalidPublicKey("RSA keys must have at least 2048 bits")
                }
            }
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw .invalidPublicKey("\(error)")
        }
        self.algorithm = algorithm
        self.publicKey = key
        self.bytes = bytes
    }

    /// Checks a WebAuthn signature made with this key over `message`.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        algorithm.verify(signature: signature, message: message, key: publicKey)
    }
}
