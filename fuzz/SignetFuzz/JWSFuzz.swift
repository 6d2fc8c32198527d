import Foundation
import SignetCrypto
import SignetJOSE

/// Compact JWS/JWT verification. Two shapes of input, chosen by the first byte:
/// - even: the rest is the token text, verified as it stands (shape, base64url, header, key
///   selection, signature checks);
/// - odd: the rest is `header JSON` 0x00 `payload bytes`, signed with the verifier's Ed25519 key
///   over exactly those bytes, so the fuzzer reaches the header rules and the claim checks.
/// Whatever the input, the verifier answers with a value or a `JOSEError`; a token it accepts was
/// signed by the key it names, with that key's algorithm.
enum JWSFuzz {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    /// Keys made once per process: Ed25519 ("ed") and P-256 ("p256").
    static let keys: (ed: PrivateKey, p256: PrivateKey)? = {
        guard let ed = try? PrivateKey.generate(.ed25519), let p256 = try? PrivateKey.generate(.p256) else { return nil }
        return (ed, p256)
    }()
    static let verifier: JWTVerifier? = {
        guard let keys,
              let ed = try? VerificationKey(keyID: "ed", algorithm: .edDSA, publicKey: keys.ed.publicKey),
              let p256 = try? VerificationKey(keyID: "p256", algorithm: .es256, publicKey: keys.p256.publicKey) else { return nil }
        let policy = VerificationPolicy(issuer: "https://issuer.example", audience: "client", allowedTypes: ["JWT", "at+jwt"],
                                        clock: { JWSFuzz.now })
        return try? JWTVerifier(keys: [ed, p256], policy: policy)
    }()

    static func run(_ input: [UInt8]) {
        guard let first = input.first, let verifier, let keys else { return }
        let rest = input.dropFirst()
        let token: String
        if first & 1 == 0 {
            token = String(decoding: rest, as: UTF8.self)
        } else {
            let split = rest.firstIndex(of: 0) ?? rest.endIndex
            let header = rest[..<split]
            let payload = split < rest.endIndex ? rest[rest.index(after: split)...] : []
            let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
            guard let signature = try? keys.ed.sign(Array(signingInput.utf8), algorithm: .edDSA) else { return }
            token = signingInput + "." + Base64URL.encode(signature)
        }
        if let jws = try? verifier.verifySignature(token) {
            require(jws.keyID == "ed" || jws.keyID == "p256", "a token verified with a key the verifier does not hold")
            require((jws.keyID == "ed" && jws.algorithm == .edDSA) || (jws.keyID == "p256" && jws.algorithm == .es256),
                    "a token verified with an algorithm its key does not pin")
        }
        if let jwt = try? verifier.verify(token) {
            require(jwt.claims.iss == "https://issuer.example", "a JWT accepted with another issuer")
            require(jwt.claims.exp != nil, "a JWT accepted without exp")
        }
    }
}
