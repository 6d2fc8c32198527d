import Foundation
import SignetStore

/// Every storage facet over one SQL database: what a backend's `SignetStorage` hands out.
public struct SQLStores: Sendable {
    /// Signing keys.
    public let keys: any SigningKeyStore
    /// Registered clients.
    public let clients: any ClientStore
    /// Local accounts and federated links.
    public let users: any UserStore
    /// Pending `/authorize` requests.
    public let authorizationRequests: any AuthorizationRequestStore
    /// Authorization codes.
    public let codes: any AuthorizationCodeStore
    /// Grant families and refresh tokens.
    public let refreshTokens: any RefreshTokenStore
    /// Browser SSO sessions.
    public let sessions: any SessionStore
    /// Remembered consent.
    public let consents: any ConsentStore
    /// One-time login nonces.
    public let nonces: any NonceStore
    /// The audit log.
    public let audit: any AuditLog
    /// Login throttling counters.
    public let throttle: any ThrottleStore
    /// Mail waiting to be sent.
    public let mailOutbox: any MailOutbox
    /// Passkeys and their ceremonies' challenges.
    public let passkeys: any PasskeyStore
    /// Email codes and links.
    public let emailChallenges: any EmailChallengeStore
    /// TOTP factors and recovery codes.
    public let secondFactors: any SecondFactorStore
    /// Console roles.
    public let operatorRoles: any OperatorRoleStore
    /// Organizations, their roles, members and invitations.
    public let organizations: any OrganizationStore
    /// Organizations' email-domain claims.
    public let organizationDomains: any OrganizationDomainStore
    /// Console sessions.
    public let consoleSessions: any ConsoleSessionStore
    let database: any SQLDatabase
    /// The statements' durations, for an observer the server installs (`SQLTimings`).
    public let timings: SQLTimings

    /// The facets over `database`.
    public init(_ backend: any SQLDatabase) {
        let timings = SQLTimings()
        self.timings = timings
        let database = TimedSQLDatabase(base: backend, timings: timings)
        self.database = database
        keys = SQLSigningKeyStore(database: database)
        clients = SQLClientStore(database: database)
        users = SQLUserStore(database: database)
        authorizationRequests = SQLAuthorizationRequestStore(database: database)
        codes = SQLCodeStore(database: database)
        refreshTokens = SQLRefreshTokenStore(database: database)
        sessions = SQLSessionStore(database: database)
        consents = SQLConsentStore(database: database)
        nonces = SQLNonceStore(database: database)
        let keying = AuditChainKeying()
        audit = SQLAuditLog(database: database, keying: keying)
        throttle = SQLThrottleStore(database: database)
        mailOutbox = SQLMailOutbox(database: database)
        passkeys = SQLPasskeyStore(database: database)
        emailChallenges = SQLEmailChallengeStore(database: database, keying: keying)
        secondFactors = SQLSecondFactorStore(database: database)
        operatorRoles = SQLOperatorRoleStore(database: database)
        organizations = SQLOrganizationStore(database: database)
        organizationDomains = SQLOrganizationDomainStore(database: database)
        consoleSessions = SQLConsoleSessionStore(database: database)
    }

    /// What `purge(before:)` deletes, in order, each with `$1` = `before` and `$2` = the batch
    /// size: a table, its key and the condition for an expired row. Tokens go with their grant
    /// (ON DELETE CASCADE), so `countsTokens` counts a batch's tokens (by `grant_ref`, the
    /// grants' `id`) before its grants go.
    /// `throttle_hits` has no key: it is deleted in one statement (its rows live one window).
    static let purgeBatches: [(table: String, key: String, condition: String, countsTokens: Bool)] = [
        ("authorization_requests", "id_hash", "expires_at < $1", false),
        ("authorization_codes", "code_hash", "expires_at < $1", false),
        ("nonces", "nonce_hash", "expires_at < $1", false),
        ("sessions", "id_hash", "absolute_expires_at < $1 OR idle_expires_at < $1 OR ended_at < $1", false),
        ("grants", "id", "absolute_expires_at < $1 OR revoked_at < $1", true),
        ("mail_outbox", "id", "finished_at < $1", false),
        ("passkey_ceremonies", "challenge_hash", "expires_at < $1", false),
        ("email_challenges", "id", "expires_at < $1", false),
        ("organization_invitations", "id", "expires_at < $1", false),
        ("console_sessions", "id_hash", "expires_at < $1", false),
    ]
    static let purgeThrottle = "DELETE FROM throttle_hits WHERE at < $1"

    /// Runs `body` in one write transaction on this store's database, for an action whose writes
    /// must commit together with outbox mail: `SQLMailOutbox.enqueue(_:on:)` on `body`'s
    /// connection enqueues the mail if and only if the transaction commits.
    @discardableResult
    public func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try database.transaction(body)
    }

    /// See `SignetStorage.purge(before:)`: at `PurgePace.standard`.
    public func purge(before: Date) throws -> Int {
        try purge(before: before, pace: .standard)
    }

    /// `purge(before:)` with `batchSize` rows of one table per transaction and no rest between them.
    public func purge(before: Date, batchSize: Int) throws -> Int {
        try purge(before: before, pace: PurgePace(batchSize: batchSize, restFactor: 0))
    }

    /// See `SignetStorage.purge(before:pace:)`: each transaction deletes the first
    /// `pace.batchSize` expired rows of one table (and counts the tokens of those grants first),
    /// until a batch comes back short; after each full batch the purge rests (`PurgePace.rest`),
    /// outside any transaction, so the serving writes take the database in between. Expired rows
    /// stay expired, so the batches converge; a batch that fails, or a `wait` that says stop,
    /// leaves the earlier ones deleted, and the next purge goes on.
    public func purge(before: Date, pace: PurgePace) throws -> Int {
        let batchSize = max(1, pace.batchSize)
        let clock = ContinuousClock()
        var removed = 0
        for batch in Self.purgeBatches {
            let selected = "SELECT \(batch.key) FROM \(batch.table) WHERE \(batch.condition) LIMIT $2"
            let delete = "DELETE FROM \(batch.table) WHERE \(batch.key) IN (\(selected))"
            let countTokens = "SELECT COUNT(*) FROM refresh_tokens WHERE grant_ref IN (\(selected))"
            while true {
                let started = clock.now
                let (rows, tokens) = try database.transaction { db in
                    let tokens = batch.countsTokens ? try db.one(countTokens, [before, batchSize]) { Int(try $0.int64(0)) } ?? 0 : 0
                    return (try db.run(delete, [before, batchSize]), tokens)
                }
                removed += rows + tokens
                if rows < batchSize { break }
                guard pace.rest(after: started.duration(to: clock.now)) else { return removed }
            }
        }
        return removed + (try database.transaction { db in try db.run(Self.purgeThrottle, [before]) })
    }
}

/// A `SignetStorage` whose facets are `SQLStores`: a backend provides only its database handle.
public protocol SQLStorage: SignetStorage {
    /// The facets over this store's database.
    var stores: SQLStores { get }
}

extension SQLStorage {
    /// Signing keys.
    public var keys: any SigningKeyStore { stores.keys }
    /// Registered clients.
    public var clients: any ClientStore { stores.clients }
    /// Local accounts and federated links.
    public var users: any UserStore { stores.users }
    /// Pending `/authorize` requests.
    public var authorizationRequests: any AuthorizationRequestStore { stores.authorizationRequests }
    /// Authorization codes.
    public var codes: any AuthorizationCodeStore { stores.codes }
    /// Grant families and refresh tokens.
    public var refreshTokens: any RefreshTokenStore { stores.refreshTokens }
    /// Browser SSO sessions.
    public var sessions: any SessionStore { stores.sessions }
    /// Remembered consent.
    public var consents: any ConsentStore { stores.consents }
    /// One-time login nonces.
    public var nonces: any NonceStore { stores.nonces }
    /// The audit log.
    public var audit: any AuditLog { stores.audit }
    /// Login throttling counters.
    public var throttle: any ThrottleStore { stores.throttle }
    /// Mail waiting to be sent.
    public var mailOutbox: any MailOutbox { stores.mailOutbox }
    /// Passkeys and their ceremonies' challenges.
    public var passkeys: any PasskeyStore { stores.passkeys }
    /// Email codes and links.
    public var emailChallenges: any EmailChallengeStore { stores.emailChallenges }
    /// TOTP factors and recovery codes.
    public var secondFactors: any SecondFactorStore { stores.secondFactors }
    /// Console roles.
    public var operatorRoles: any OperatorRoleStore { stores.operatorRoles }
    /// Organizations, their roles, members and invitations.
    public var organizations: any OrganizationStore { stores.organizations }
    /// See `SignetStorage.organizationDomains`.
    public var organizationDomains: any OrganizationDomainStore { stores.organizationDomains }
    /// See `SignetStorage.consoleSessions`.
    public var consoleSessions: any ConsoleSessionStore { stores.consoleSessions }

    /// Deletes expired and ended artifacts; see `SignetStorage.purge(before:)`.
    public func purge(before: Date) throws -> Int {
        try stores.purge(before: before)
    }

    /// See `SignetStorage.purge(before:pace:)`.
    public func purge(before: Date, pace: PurgePace) throws -> Int {
        try stores.purge(before: before, pace: pace)
    }
}
