import Foundation
import SignetCore
import SignetCrypto
import SignetSQLite
import SignetStore

/// Everything a running Signet (or an admin command) shares: configuration, storage, master key,
/// signing keys and the clock. Admin subcommands open the same environment as the server, so they
/// act on the same store.
public final class ServerEnvironment: Sendable {
    /// The configuration in force.
    public let configuration: SignetConfiguration
    /// The store.
    public let storage: any SignetStorage
    /// The installation's root secret.
    public let masterKey: MasterKey
    /// Signing keys.
    public let keyRing: SigningKeyRing
    /// The clock.
    public let clock: any Clock
    /// The random source.
    public let random: any RandomSource

    /// Opens (and, for the embedded default, creates) the data folder, the master key and the
    /// database, and runs pending migrations.
    public static func open(_ configuration: SignetConfiguration, clock: any Clock = SystemClock(),
                            random: any RandomSource = SystemRandomSource()) throws -> ServerEnvironment {
        let directory = configuration.dataDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let masterKey = try loadMasterKey(configuration, random: random)
        let storage = try SQLiteStorage(path: configuration.databaseFilePath)
        _ = try storage.migrate()
        try storage.startBackgroundCheckpoints()
        return ServerEnvironment(configuration: configuration, storage: storage, masterKey: masterKey, clock: clock, random: random)
    }

    /// Assembles an environment from parts (tests use an in-memory store).
    public init(configuration: SignetConfiguration, storage: any SignetStorage, masterKey: MasterKey,
                clock: any Clock, random: any RandomSource) {
        self.configuration = configuration
        self.storage = storage
        self.masterKey = masterKey
        self.clock = clock
        self.random = random
        self.keyRing = SigningKeyRing(store: storage.keys, encryptionKey: masterKey.keyEncryptionKey, clock: clock,
                                      retentionSeconds: configuration.longestSignedTokenLifetime)
    }

    /// The algorithms Signet must always be able to sign with: RS256 (OpenID Connect requires it),
    /// ES256, and whatever the configuration names.
    public var requiredAlgorithms: [SignatureAlgorithm] {
        var algorithms: [SignatureAlgorithm] = [.rs256, .es256]
        for name in [configuration.keys.accessTokenAlgorithm, configuration.keys.idTokenAlgorithm] {
            if let algorithm = SignatureAlgorithm(rawValue: name), !algorithms.contains(algorithm) { algorithms.append(algorithm) }
        }
        return algorithms
    }

    /// The server policy (lifetimes, algorithms, issuer) from the configuration.
    public var policy: ServerPolicy {
        let config = configuration
        var policy = ServerPolicy(issuer: config.issuer)
        policy.authorizationRequestLifetime = config.lifetimes.authorizationRequest
        policy.authorizationCodeLifetime = config.lifetimes.authorizationCode
        policy.accessTokenLifetime = config.lifetimes.accessToken
        policy.idTokenLifetime = config.lifetimes.idToken
        policy.refreshTokenLifetime = config.lifetimes.refreshToken
        policy.refreshFamilyLifetime = config.lifetimes.refreshFamily
        policy.refreshGrace = config.lifetimes.refreshGrace
        policy.sessionIdle = config.lifetimes.sessionIdle
        policy.sessionAbsolute = config.lifetimes.sessionAbsolute
        policy.accessTokenAlgorithm = config.keys.accessTokenAlgorithm
        policy.idTokenAlgorithm = config.keys.idTokenAlgorithm
        return policy
    }

    /// Reads the master key; when it is a `file:` reference to a missing file, creates it (mode 0600).
    static func loadMasterKey(_ configuration: SignetConfiguration, random: any RandomSource) throws -> MasterKey {
        let reference = configuration.masterKey
        if let path = reference.resolvedPath(relativeTo: configuration.dataDirectory), !FileManager.default.fileExists(atPath: path) {
            let hex = MasterKey.generateHex(random: random) + "\n"
            let created = FileManager.default.createFile(atPath: path, contents: Data(hex.utf8), attributes: [.posixPermissions: 0o600])
            guard created else { throw ConfigurationIssue(path: "master_key", message: "cannot create \(path)") }
        }
        let material = try reference.resolve(relativeTo: configuration.dataDirectory)
        do { return try MasterKey(material: material) } catch {
            throw ConfigurationIssue(path: "master_key", message: error.message)
        }
    }
}
