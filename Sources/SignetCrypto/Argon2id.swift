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
