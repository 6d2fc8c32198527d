import CLibCrypto

/// Creates the per-operation `EVP_MD_CTX` for a signature or a verification.
///
/// `EVP_DigestSignInit` costs a provider method lookup, key export checks and parameter setting on
/// every call. A `SignatureContext` does that work once per key and algorithm on a *template*
/// context that is never used itself; each operation gets a fresh context by copying the template
/// (`EVP_MD_CTX_copy_ex`, which duplicates the provider context). Copying only reads the template,
/// so one template serves any number of threads. If a copy ever fails, the operation falls back to
/// a full initialisation.
final class SignatureContext: @unchecked Sendable {
    /// Whether contexts sign or verify.
    enum Operation: Sendable {
        case sign, verify
    }

    private let pkey: OpaquePointer
    private let algorithm: SignatureAlgorithm
    private let operation: Operation
    /// An initialised, never-used EVP_MD_CTX; immutable after init. Nil if initialisation failed.
    private let template: OpaquePointer?

    /// Prepares contexts for `algorithm` with `pkey` (which the caller keeps alive).
    init(pkey: OpaquePointer, algorithm: SignatureAlgorithm, operation: Operation) {
        self.pkey = pkey
        self.algorithm = algorithm
        self.operation = operation
        if let ctx = EVP_MD_CTX_new() {
            if Self.initialize(ctx, pkey: pkey, algorithm: algorithm, operation: operation) {
                template = ctx
            } else {
                EVP_MD_CTX_free(ctx)
                OpenSSLError.clear()
                template = nil
            }
        } else {
            template = nil
        }
    }

    deinit {
        EVP_MD_CTX_free(template)
    }

    /// One context for each algorithm that fits `type`: what a key signs or verifies with.
    static func all(pkey: OpaquePointer, type: KeyType, operation: Operation) -> [SignatureAlgorithm: SignatureContext] {
        var contexts: [SignatureAlgorithm: SignatureContext] = [:]
        for algorithm in SignatureAlgorithm.allCases where algorithm.fits(type) {
            contexts[algorithm] = SignatureContext(pkey: pkey, algorithm: algorithm, operation: operation)
        }
        return contexts
    }

    /// Returns a fresh context ready for one `EVP_DigestSign`/`EVP_DigestVerify`; the caller frees it.
    func makeContext() -> OpaquePointer? {
        if let template, let ctx = EVP_MD_CTX_new() {
            if EVP_MD_CTX_copy_ex(ctx, template) == 1 { return ctx }
            EVP_MD_CTX_free(ctx)
            OpenSSLError.clear()
        }
        guard let ctx = EVP_MD_CTX_new() else { return nil }
        if Self.initialize(ctx, pkey: pkey, algorithm: algorithm, operation: operation) { return ctx }
        EVP_MD_CTX_free(ctx)
        return nil
    }

    /// Runs `EVP_DigestSignInit`/`EVP_DigestVerifyInit` and the algorithm's padding parameters.
    static func initialize(_ ctx: OpaquePointer, pkey: OpaquePointer, algorithm: SignatureAlgorithm,
                           operation: Operation) -> Bool {
        // Ed25519 hashes internally (PureEdDSA): no digest is passed.
        let md: OpaquePointer? = algorithm == .edDSA ? nil : FetchedAlgorithms.shared.sha256
        var pctx: OpaquePointer?
        let initialized = switch operation {
        case .sign: EVP_DigestSignInit(ctx, &pctx, md, nil, pkey)
        case .verify: EVP_DigestVerifyInit(ctx, &pctx, md, nil, pkey)
        }
        guard initialized == 1, let pctx else { return false }
        switch algorithm {
        case .rs256:
            return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) == 1
        case .ps256:
            // RFC 7518 §3.5: MGF1 with SHA-256 and a salt as long as the hash (32 bytes).
            return EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1
                && EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, FetchedAlgorithms.shared.sha256) == 1
                && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, 32) == 1
        case .es256, .edDSA:
            return true
        }
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with a pointer that is never nil, even for an empty array (some OpenSSL
    /// one-shot functions treat a NULL input pointer as an error even when the length is zero).
    @inline(__always)
    func withNonNullBytes<R>(_ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress, !buffer.isEmpty { return body(base, buffer.count) }
            let zero: UInt8 = 0
            return withUnsafePointer(to: zero) { body($0, 0) }
        }
    }
}
