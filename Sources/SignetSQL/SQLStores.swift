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
    /// Organizations, their roles, members and invitations.
    public let organizations: any OrganizationStore
    /// Organizations' email-domain claims.
    public let organizationDomains: any OrganizationDomainStore
    let database: any SQLDatabase

    /// The facets over `database`.
    public init(_ database: any SQLDatabase) {
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
        audit = SQLAuditLog(database: database)
        throttle = SQLThrottleStore(database: database)
        mailOutbox = SQLMailOutbox(database: database)
        passkeys = SQLPasskeyStore(database: database)
        emailChallenges = SQLEmailChallengeStore(database: database)
        secondFactors = SQLSecondFactorStore(database: database)
        organizations = SQLOrganizationStore(database: database)
        organizationDomains = SQLOrganizationDomainStore(database: database)
    }

    /// What `purge(before:)` deletes, in order, each with `$1` = `before`. Tokens go with their
    /// grant (ON DELETE CASCADE), so they are counted before the grants are deleted.
    static let purgeStatements: [(sql: String, counts: Bool)] = [
        ("DELETE FROM authorization_requests WHERE expires_at < $1", false),
        ("DELETE FROM authorization_codes WHERE expires_at < $1", false),
        ("DELETE FROM nonces WHERE expires_at < $1", false),
        ("DELETE FROM sessions WHERE absolute_expires_at < $1 OR idle_expires_at < $1 OR ended_at < $1", false),
        ("""
         SELECT COUNT(*) FROM refresh_tokens WHERE grant_id IN
             (SELECT grant_id FROM grants WHERE absolute_expires_at < $1 OR revoked_at < $1)
         """, true),
        ("DELETE FROM grants WHERE absolute_expires_at < $1 OR revoked_at < $1", false),
        ("DELETE FROM throttle_hits WHERE at < $1", false),
        ("DELETE FROM mail_outbox WHERE finished_at < $1", false),
        ("DELETE FROM passkey_ceremonies WHERE expires_at < $1", false),
        ("DELETE FROM email_challenges WHERE expires_at < $1", false),
        ("DELETE FROM organization_invitations WHERE expires_at < $1", false),
    ]

    /// Runs `body` in one write transaction on this store's database, for an action whose writes
    /// must commit together with outbox mail: `SQLMailOutbox.enqueue(_:on:)` on `body`'s
    /// connection enqueues the mail if and only if the transaction commits.
    @discardableResult
    public func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try database.transaction(body)
    }

    /// See `SignetStorage.purge(before:)`: one transaction.
    public func purge(before: Date) throws -> Int {
        try database.transaction { db in
            try Self.purgeStatements.reduce(0) { removed, statement in
                let count = statement.counts
                    ? try db.one(statement.sql, [before]) { Int(try $0.int64(0)) } ?? 0
                    : try db.run(statement.sql, [before])
                return removed + count
            }
        }
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
    /// Organizations, their roles, members and invitations.
    public var organizations: any OrganizationStore { stores.organizations }
    /// See `SignetStorage.organizationDomains`.
    public var organizationDomains: any OrganizationDomainStore { stores.organizationDomains }

    /// Deletes expired and ended artifacts; see `SignetStorage.purge(before:)`.
    public func purge(before: Date) throws -> Int {
        try stores.purge(before: before)
    }
}
