import SignetCore
import SignetCrypto

extension ServerEnvironment {
    /// The Argon2id cost from the configuration (`passwords`).
    public var passwordParameters: Argon2idParameters {
        Argon2idParameters(opsLimit: UInt64(max(1, configuration.passwords.opsLimit)),
                           memLimitBytes: configuration.passwords.memoryKiB * 1024)
    }

    /// Local accounts with the configured password cost, over this environment's store.
    public func makeUserService() -> UserService {
        UserService(storage: storage, passwordParameters: passwordParameters, clock: clock, random: random,
                    auditContext: AuditContext.ofRequest)
    }
}
