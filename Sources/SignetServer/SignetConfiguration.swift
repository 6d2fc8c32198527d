import Foundation
import SignetCore
import SignetCrypto
import SignetSQLite
import SignetStore

/// Everything `signet serve` needs to run, read from `signet.json` or taken from the defaults.
public struct SignetConfiguration: Sendable {
    /// The issuer identifier (no trailing slash).
    public var issuer: String
    /// False when the issuer was not set (file or flag): it then follows the first listen address.
    public var issuerIsExplicit = false
    /// Addresses to listen on.
    public var listen: [String]
    /// The data folder.
    public var dataDirectory: String
    /// Where the master key is.
    public var masterKey: SecretReference
    /// Storage settings.
    public var database: Database
    /// HTTP limits and TLS.
    public var http: HTTP
    /// Lifetimes in seconds.
    public var lifetimes: Lifetimes
    /// Signing key policy.
    public var keys: Keys
    /// Password hashing cost.
    public var passwords: Passwords
    /// Deleting expired rows.
    public var maintenance: Maintenance
    /// Sending mail.
    public var mail: Mail
    /// WebAuthn (`SignetConfiguration+Passkeys.swift`).
    public var passkeys: Passkeys
    /// First-party apps for the association files.
    public var nativeApps: NativeApps
    /// Sign-up, recovery and email sign-in.
    public var accounts: Accounts
    /// Second factors.
    public var mfa: MFA
    /// Organizations (`SignetConfiguration+Organizations.swift`).
    public var organizations: Organizations
    /// What `signet serve` logs.
    public var log: LogSettings
    /// How the pages and the mail present the product.
    public var branding: Branding
    /// The admin listener (`Settings+Admin.swift`).
    public var admin: Admin
    /// `logging`: level and format of the log.
    public var logging: LoggingSettings
    /// `audit`: the audit trail's retention.
    public var audit: AuditSettings
    /// `domains`: how domain claims are proven (`Settings+Domains.swift`).
    public var domains: Domains
    /// Clients declared in the file (`clients`); upserted into the store at start-up.
    public var clients: [ConfiguredClient] = []
    /// Upstream identity providers (`connections`).
    public var connections: [ConfiguredConnection] = []

    /// Storage settings.
    public struct Database: Sendable {
        /// SQLite or PostgreSQL.
        public var driver: DatabaseDriver = Settings.databaseDriver.defaultValue
        /// SQLite file, relative to the data folder.
        public var path: String = Settings.databasePath.defaultValue
        /// PostgreSQL: where the connection string is (it may hold a password).
        public var url: SecretReference? = Settings.databaseURL.defaultValue
        /// PostgreSQL: the pool size of one node.
        public var maxConnections: Int = Settings.databaseMaxConnections.defaultValue
        /// PostgreSQL: the statement and lock timeout of every connection, in seconds.
        public var statementTimeoutSeconds: Int = Settings.databaseStatementTimeout.defaultValue
        /// SQLite: how the writer syncs its log.
        public var synchronous: SQLiteSynchronous = Settings.databaseSynchronous.defaultValue
    }

    /// HTTP limits and TLS.
    public struct HTTP: Sendable {
        /// Largest body.
        public var maxBodyBytes: Int = Settings.maxBodyBytes.defaultValue
        /// Largest head.
        public var maxHeaderBytes: Int = Settings.maxHeaderBytes.defaultValue
        /// Connection limit per listener.
        public var connectionLimit: Int = Settings.connectionLimit.defaultValue
        /// Connection limit per peer address and listener; 0 = none.
        public var perAddressConnectionLimit: Int = Settings.perAddressConnectionLimit.defaultValue
        /// Trusted reverse proxies: addresses and CIDR ranges (checked when loaded).
        public var trustedProxies: [String] = Settings.trustedProxies.defaultValue
        /// Idle timeout.
        public var connectionTimeoutSeconds: Int = Settings.connectionTimeout.defaultValue
        /// Worker threads; 0 = 16 (SQLite) or the pool size (PostgreSQL), at least one per core:
        /// `SignetApplication.httpThreadCount`.
        public var threads: Int = Settings.threads.defaultValue
        /// TLS certificate path.
        public var tlsCertificateFile: String? = Settings.tlsCertificate.defaultValue
        /// TLS private key.
        public var tlsPrivateKey: SecretReference? = Settings.tlsPrivateKey.defaultValue
    }

    /// Lifetimes in seconds.
    public struct Lifetimes: Sendable {
        /// Pending authorization request.
        public var authorizationRequest: Int = Settings.authorizationRequestLifetime.defaultValue
        /// Authorization code.
        public var authorizationCode: Int = Settings.authorizationCodeLifetime.defaultValue
        /// Access token.
        public var accessToken: Int = Settings.accessTokenLifetime.defaultValue
        /// ID token.
        public var idToken: Int = Settings.idTokenLifetime.defaultValue
        /// Refresh token, idle.
        public var refreshToken: Int = Settings.refreshTokenLifetime.defaultValue
        /// Refresh family, absolute.
        public var refreshFamily: Int = Settings.refreshFamilyLifetime.defaultValue
        /// Rotation grace window.
        public var refreshGrace: Int = Settings.refreshGrace.defaultValue
        /// SSO session idle.
        public var sessionIdle: Int = Settings.sessionIdle.defaultValue
        /// SSO session absolute.
        public var sessionAbsolute: Int = Settings.sessionAbsolute.defaultValue
    }

    /// Signing key policy.
    public struct Keys: Sendable {
        /// Access token algorithm.
        public var accessTokenAlgorithm: SignatureAlgorithm = Settings.accessTokenAlgorithm.defaultValue
        /// Default ID token algorithm.
        public var idTokenAlgorithm: SignatureAlgorithm = Settings.idTokenAlgorithm.defaultValue
        /// Pre-publication before a rotated key signs.
        public var prepublishSeconds: Int = Settings.keyPrepublish.defaultValue
    }

    /// Password hashing cost.
    public struct Passwords: Sendable {
        /// Argon2id passes.
        public var opsLimit: Int = Settings.argonOps.defaultValue
        /// Argon2id memory in KiB.
        public var memoryKiB: Int = Settings.argonMemory.defaultValue
    }

    /// Deleting expired rows.
    public struct Maintenance: Sendable {
        /// Seconds between purges by `signet serve`; 0 = never.
        public var purgeInterval: Int = Settings.purgeInterval.defaultValue
        /// Seconds a row is kept past its expiry or end.
        public var purgeRetention: Int = Settings.purgeRetention.defaultValue
        /// A purge's rest after each batch, as a multiple of the time the batch took.
        public var purgeRest: Int = Settings.purgeRest.defaultValue

        /// The pace of a purge (`SignetStorage.purge(before:pace:)`): `PurgePace.standard` with
        /// `purgeRest`.
        public var purgePace: PurgePace {
            var pace = PurgePace.standard
            pace.restFactor = Double(purgeRest)
            return pace
        }
    }

    /// Sending mail (`SignetConfiguration+Mail.swift` turns it into a transport).
    public struct Mail: Sendable {
        /// The SMTP server's URL (checked when loaded); nil: no mail is sent.
        public var smtpURL: String? = Settings.mailSMTPURL.defaultValue
        /// The sender address (checked when loaded).
        public var from: String? = Settings.mailFrom.defaultValue
        /// The sender name.
        public var fromName: String? = Settings.mailFromName.defaultValue
        /// SMTP AUTH user name.
        public var username: String? = Settings.mailUsername.defaultValue
        /// SMTP AUTH password.
        public var password: SecretReference? = Settings.mailPassword.defaultValue
        /// Trusted CA bundle (PEM).
        public var caFile: String? = Settings.mailCAFile.defaultValue
        /// Time limit of one submission, in seconds.
        public var timeoutSeconds: Int = Settings.mailTimeout.defaultValue
    }

    /// Second factors (TOTP and recovery codes).
    public struct MFA: Sendable {
        /// Every user needs a second factor.
        public var required: Bool = Settings.mfaRequired.defaultValue
        /// Attempts per account inside the window.
        public var attemptLimit: Int = Settings.mfaAttemptLimit.defaultValue
        /// The window, seconds.
        public var attemptWindow: Int = Settings.mfaAttemptWindow.defaultValue
        /// Wrong codes in a row before the TOTP factor locks.
        public var lockAfter: Int = Settings.mfaLockAfter.defaultValue
    }

    /// What `signet serve` logs.
    public struct LogSettings: Sendable {
        /// One line per request (method, path, status, duration).
        public var requests: Bool = Settings.logRequests.defaultValue
    }

    /// The embedded default: every setting at its default.
    public static var defaults: SignetConfiguration {
        // The defaults are valid by construction; the fallback only keeps this total.
        (try? SignetConfiguration(parsing: Data("{}".utf8))) ?? SignetConfiguration(uncheckedDefaults: ())
    }

    init(uncheckedDefaults: Void) {
        issuer = Settings.issuer.defaultValue
        listen = Settings.listen.defaultValue
        dataDirectory = Settings.dataDirectory.defaultValue
        masterKey = Settings.masterKey.defaultValue
        database = Database()
        http = HTTP()
        lifetimes = Lifetimes()
        keys = Keys()
        passwords = Passwords()
        maintenance = Maintenance()
        mail = Mail()
        passkeys = Passkeys()
        nativeApps = NativeApps()
        accounts = Accounts()
        mfa = MFA()
        organizations = Organizations()
        log = LogSettings()
        branding = Branding()
        admin = Admin()
        logging = LoggingSettings()
        audit = AuditSettings()
        domains = Domains()
    }

    /// The absolute path of the SQLite database.
    public var databaseFilePath: String {
        database.path.hasPrefix("/") ? database.path : (dataDirectory as NSString).appendingPathComponent(database.path)
    }

    /// The longest time a token signed now may stay valid: how long a retired key stays published.
    public var longestSignedTokenLifetime: Int { max(lifetimes.accessToken, lifetimes.idToken) }

    /// The lifetimes and algorithms the authorization server applies: the one place a
    /// `ServerPolicy` is made from the configuration.
    public var policy: ServerPolicy {
        var policy = ServerPolicy(issuer: issuer,
                                  authorizationRequestLifetime: lifetimes.authorizationRequest, authorizationCodeLifetime: lifetimes.authorizationCode,
                                  accessTokenLifetime: lifetimes.accessToken, idTokenLifetime: lifetimes.idToken,
                                  refreshTokenLifetime: lifetimes.refreshToken, refreshFamilyLifetime: lifetimes.refreshFamily,
                                  refreshGrace: lifetimes.refreshGrace, sessionIdle: lifetimes.sessionIdle, sessionAbsolute: lifetimes.sessionAbsolute,
                                  accessTokenAlgorithm: keys.accessTokenAlgorithm, idTokenAlgorithm: keys.idTokenAlgorithm,
                                  mfaRequired: mfa.required, secondFactorAttemptLimit: mfa.attemptLimit,
                                  secondFactorAttemptWindow: mfa.attemptWindow)
        policy.secondFactorLockAfter = mfa.lockAfter
        return policy
    }
}
