import CLibCrypto

/// OpenSSL objects fetched once per process and then shared read-only.
///
/// Fetching an `EVP_MD` by name takes a lock and a table lookup; doing it once keeps it off the
/// per-signature path. Fetched objects are immutable and safe to use from any thread.
final class FetchedAlgorithms: @unchecked Sendable {
    let sha1: OpaquePointer
    let sha256: OpaquePointer
    let sha384: OpaquePointer
    let sha512: OpaquePointer

    init() {
        // EVP_MD_fetch only fails if the default provider is missing; the legacy static
        // EVP_sha256() then still works (OpenSSL fetches implicitly on use).
        sha1 = EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1()
        sha256 = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()
        sha384 = EVP_MD_fetch(nil, "SHA384", nil) ?? EVP_sha384()
        sha512 = EVP_MD_fetch(nil, "SHA512", nil) ?? EVP_sha512()
    }

    /// The process-wide instance.
    static let shared = FetchedAlgorithms()
}

/// Small helpers around OpenSSL's error queue.
enum OpenSSLError {
    /// Builds a `CryptoError` for `operation`, appending OpenSSL's latest reason, and clears the
    /// thread's error queue so stale entries never leak into later diagnostics.
    static func make(_ operation: String) -> CryptoError {
        let code = ERR_peek_last_error()
        var reason = ""
        if code != 0, let cReason = ERR_reason_error_string(code) {
            reason = String(cString: cReason)
        }
        ERR_clear_error()
        return CryptoError(reason.isEmpty ? operation : "\(operation): \(reason)")
    }

    /// Clears the calling thread's OpenSSL error queue.
    static func clear() {
        ERR_clear_error()
    }
}
