import Foundation
import SignetCrypto
@testable import SignetJOSE

/// A fixed "now" for every verifier test: 2023-11-14T22:13:20Z.
let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

/// Keys generated once per test process (RSA generation is slow).
enum TestKeys {
    static let rsa: PrivateKey? = try? PrivateKey.generate(.rsa(bits: 2048))
    static let p256: PrivateKey? = try? PrivateKey.generate(.p256)
    static let otherP256: PrivateKey? = try? PrivateKey.generate(.p256)
    static let ed25519: PrivateKey? = try? PrivateKey.generate(.ed25519)

    static func key(for algorithm: SignatureAlgorithm) -> PrivateKey? {
        switch algorithm {
        case .rs256, .ps256: rsa
        case .es256: p256
        case .edDSA: ed25519
        }
    }
}

/// Builds a compact JWS from raw header and payload JSON text, signed with `key` — bypassing
/// JWSSigner so tests can produce hostile headers that Signet itself would never emit.
func forge(header: String, payload: String, key: PrivateKey, algorithm: SignatureAlgorithm) throws -> String {
    let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
    let signature = try key.sign(Array(input.utf8), algorithm: algorithm)
    return input + "." + Base64URL.encode(signature)
}

/// Valid claims for `fixedNow`.
func validClaims(_ extra: [String: JSONValue] = [:]) -> JWTClaims {
    var claims = JWTClaims(extra)
    claims.iss = "https://id.example.com"
    claims.sub = "user-1"
    claims.aud = ["api"]
    claims.iat = fixedNow
    claims.exp = fixedNow.addingTimeInterval(300)
    return claims
}

/// Unpadded base64url of a string's UTF-8.
func b64(_ string: String) -> String {
    Base64URL.encode(Array(string.utf8))
}
