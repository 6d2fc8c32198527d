import CSodium

/// Argon2id password hashing (RFC 9106) through libsodium, stored as PHC strings such as
/// `$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>`.
///
/// Each hash blocks the calling thread for tens of milliseconds and uses `memLimitBytes` of memory:
/// callers should bound how many run at once and keep them off request-handling threads.
public enum Argon2id {
    /// Hashes `password` with a fresh random salt.
    ///
    /// - Throws: `CryptoError` if the parameters are outside libsodium's limits, libsodium failed
    ///   to initialise, or memory could not be allocated.
    public static func hash(password: String, parameters: Argon2idParameters) throws -> String {
        guard Sodium.isReady else { throw CryptoError("libsodium failed to initialise") }
        guard parameters.opsLimit >= UInt64(crypto_pwhash_argon2id_OPSLIMIT_MIN),
              parameters.opsLimit <= UInt64(crypto_pwhash_argon2id_OPSLIMIT_MAX) else {
            throw CryptoError("Argon2id opsLimit out of range")
        }
        guard parameters.memLimitBytes >= Int(crypto_pwhash_argon2id_MEMLIMIT_MIN),
              parameters.memLimitBytes <= Int(Int32.max) * 1024 else {
            throw CryptoError("Argon2id memLimitBytes out of range")
        }
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let length = UInt64(password.utf8.count)
        // libsodium marks passwd nonnull: withCString always provides a valid pointer, even for "".
        let status = password.withCString { passwd in
            crypto_pwhash_str_alg(&out, passwd, length, parameters.opsLimit, parameters.memLimitBytes,
                                  crypto_pwhash_ALG_ARGON2ID13)
        }
        guard status == 0 else { throw CryptoError("Argon2id hashing failed (out of memory?)") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Checks `password` against a stored PHC string in constant time. Returns false for a wrong
    /// password and for anything that is not an Argon2id PHC string.
    public static func verify(password: String, phc: String) -> Bool {
        guard Sodium.isReady, isArgon2idPHC(phc) else { return false }
        let length = UInt64(password.utf8.count)
        return phc.withCString { stored in
            password.withCString { passwd in
                crypto_pwhash_str_verify(stored, passwd, length) == 0
            }
        }
    }

    /// A PHC string that no password matches but whose verification costs exactly what a real
    /// hash with `parameters` costs: the string `hash(password:parameters:)` would write (`m` in
    /// KiB, `t`, `p=1`, a 16-byte salt, a 32-byte hash, in libsodium's unpadded standard base64)
    /// with a random salt and random bytes in place of the hash, so `verify` runs the whole
    /// Argon2id computation and compares its result with bytes no input produces (a match would
    /// be a preimage of 256 random bits). It takes no hashing to make, so a server can have the
    /// string its unknown-account checks verify against from its first instant, instead of
    /// spending one Argon2id run (64 MiB and tens of milliseconds by default) to hash a random
    /// password at start-up.
    public static func unmatchable(parameters: Argon2idParameters, random: (Int) -> [UInt8] = SecureRandom.bytes) -> String {
        func base64(_ bytes: [UInt8]) -> String {
            String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        }
        let memoryKiB = parameters.memLimitBytes / 1024
        return "$argon2id$v=19$m=\(memoryKiB),t=\(parameters.opsLimit),p=1$\(base64(random(16)))$\(base64(random(32)))"
    }

    /// Whether a stored hash was made with parameters other than `parameters` (or is not a valid
    /// Argon2id PHC string), so it should be recomputed at the next successful login.
    public static func needsRehash(phc: String, parameters: Argon2idParameters) -> Bool {
        guard Sodium.isReady, isArgon2idPHC(phc) else { return true }
        return phc.withCString { stored in
            crypto_pwhash_str_needs_rehash(stored, parameters.opsLimit, parameters.memLimitBytes) != 0
        }
    }

    private static func isArgon2idPHC(_ phc: String) -> Bool {
        phc.utf8.count < Int(crypto_pwhash_STRBYTES) && phc.hasPrefix("$argon2id$") && !phc.utf8.contains(0)
    }
}

/// One-time libsodium initialisation.
enum Sodium {
    /// True once `sodium_init` has succeeded. Swift initialises globals and static lets exactly
    /// once, thread-safely, on first use.
    static let isReady: Bool = sodium_init() >= 0
}
