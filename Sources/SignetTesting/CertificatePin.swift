import Foundation

/// RFC 7469 `pin-sha256` of a PEM certificate's public key, computed by the `openssl` tool (an
/// implementation independent of the one under test).
public enum CertificatePin {
    /// Base64 of the SHA-256 of the certificate's SubjectPublicKeyInfo (44 characters).
    public static func base64(ofCertificate path: String) async throws -> String {
        let script = "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        let result = try await Subprocess.run("/bin/sh", ["-c", script])
        guard result.succeeded else { throw TestingError("openssl could not compute the pin: \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The same pin as 32 bytes.
    public static func bytes(ofCertificate path: String) async throws -> [UInt8] {
        guard let data = Data(base64Encoded: try await base64(ofCertificate: path)) else { throw TestingError("openssl printed no base64") }
        return Array(data)
    }
}
