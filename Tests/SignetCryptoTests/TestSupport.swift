import Foundation
@testable import SignetCrypto

/// Hex string to bytes (test fixtures only).
func hex(_ string: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var iterator = string.filter { !$0.isWhitespace }.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
        bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
    }
    return bytes
}

/// Bytes to lowercase hex.
func toHex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// Unpadded base64url to bytes (test fixtures only; SignetJOSE has the real, strict decoder).
func b64u(_ string: String) -> [UInt8] {
    var s = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while s.count % 4 != 0 { s += "=" }
    return Data(base64Encoded: s).map { Array($0) } ?? []
}

/// Builds an unencrypted PKCS #8 RSA key from its JWK-style components (RFC 8017 A.1.2).
func rsaPKCS8(n: String, e: String, d: String, p: String, q: String, dp: String, dq: String, qi: String) -> [UInt8] {
    let version = DER.tlv(0x02, [0x00])
    let rsaPrivateKey = DER.tlv(0x30, version + [n, e, d, p, q, dp, dq, qi].flatMap { DER.unsignedInteger(b64u($0)) })
    let algorithm = DER.sequence([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01], [0x05, 0x00])
    return DER.sequence(version, algorithm, DER.tlv(0x04, rsaPrivateKey))
}

/// Builds an unencrypted PKCS #8 Ed25519 key from its 32-byte seed (RFC 8410 §7).
func ed25519PKCS8(seed: [UInt8]) -> [UInt8] {
    hex("302e020100300506032b657004220420") + seed
}

/// Builds an unencrypted PKCS #8 P-256 key from the private scalar and public coordinates
/// (RFC 5915 ECPrivateKey inside RFC 5208 PrivateKeyInfo).
func p256PKCS8(d: [UInt8], x: [UInt8], y: [UInt8]) -> [UInt8] {
    let ecPrivateKey = DER.sequence(DER.tlv(0x02, [0x01]), DER.tlv(0x04, d),
                                    DER.tlv(0xa1, DER.tlv(0x03, [0x00, 0x04] + x + y)))
    let algorithm = DER.sequence(hex("06072a8648ce3d0201"), hex("06082a8648ce3d030107"))
    return DER.sequence(DER.tlv(0x02, [0x00]), algorithm, DER.tlv(0x04, ecPrivateKey))
}

/// RFC 7515 Appendix A.2 RSA key (also RFC 7517 Appendix A.1's RSA public key).
enum RFC7515A2 {
    static let n = "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"
    static let e = "AQAB"
    static let d = "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ"
    static let p = "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc"
    static let q = "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc"
    static let dp = "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0"
    static let dq = "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU"
    static let qi = "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U"
    static let signingInput = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    static let signature = "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"

    static func privateKey() throws -> PrivateKey {
        try PrivateKey(pkcs8DER: rsaPKCS8(n: n, e: e, d: d, p: p, q: q, dp: dp, dq: dq, qi: qi))
    }
}

/// RFC 7515 Appendix A.3 P-256 key and signature.
enum RFC7515A3 {
    static let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let d = "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"
    static let signingInput = "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    static let signature = "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
}

/// Keys generated once per test process: RSA generation is slow.
enum SharedKeys {
    static let rsa: PrivateKey? = try? PrivateKey.generate(.rsa(bits: 2048))
    static let p256: PrivateKey? = try? PrivateKey.generate(.p256)
    static let ed25519: PrivateKey? = try? PrivateKey.generate(.ed25519)
}
