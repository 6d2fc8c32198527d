import CSodium

/// Cost parameters for Argon2id password hashing.
public struct Argon2idParameters: Sendable, Equatable {
    /// Number of passes over memory (libsodium `opslimit`, Argon2 `t`). At least 1.
    public var opsLimit: UInt64
    /// Memory used, in bytes (libsodium `memlimit`). At least 8 KiB.
    public var memLimitBytes: Int

    /// Creates parameters; they are checked against libsodium's limits when hashing.
    public init(opsLimit: UInt64, memLimitBytes: Int) {
        self.opsLimit = opsLimit
        self.memLimitBytes = memLimitBytes
    }

    /// libsodium's interactive preset: t=2, 64 MiB (about 50 ms on a small server core).
    public static let interactive = Argon2idParameters(
        opsLimit: UInt64(crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE),
        memLimitBytes: Int(crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE))

    /// libsodium's moderate preset: t=3, 256 MiB (about 350 ms).
    public static let moderate = Argon2idParameters(
        opsLimit: UInt64(crypto_pwhash_argon2id_OPSLIMIT_MODERATE),
        memLimitBytes: Int(crypto_pwhash_argon2id_MEMLIMIT_MODERATE))
}
