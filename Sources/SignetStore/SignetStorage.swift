import Foundation

/// Everything the authorization server stores, as one value.
///
/// Each facet is a narrow protocol so code can depend on only what it uses. Every method is
/// synchronous, takes the time from its caller (stores never read the clock), and is safe to call
/// from many threads at once.
public protocol SignetStorage: Sendable {
    /// Signing keys.
    var keys: any SigningKeyStore { get }
    /// Registered clients.
    var clients: any ClientStore { get }
    /// Local accounts and federated links.
    var users: any UserStore { get }
    /// Pending `/authorize` requests.
    var authorizationRequests: any AuthorizationRequestStore { get }
    /// Authorization codes.
    var codes: any AuthorizationCodeStore { get }
    /// Grant families and refresh tokens.
    var refreshTokens: any RefreshTokenStore { get }
    /// Browser SSO sessions.
    var sessions: any SessionStore { get }
    /// Remembered consent.
    var consents: any ConsentStore { get }
    /// One-time login nonces.
    var nonces: any NonceStore { get }
    /// The audit log.
    var audit: any AuditLog { get }
    /// Login throttling counters.
    var throttle: any ThrottleStore { get }
    /// Mail waiting to be sent.
    var mailOutbox: any MailOutbox { get }
    /// Passkeys and their ceremonies' challenges.
    var passkeys: any PasskeyStore { get }

    /// Email codes and links (verification, reset, email sign-in).
    var emailChallenges: any EmailChallengeStore { get }
    /// TOTP factors and recovery codes.
    var secondFactors: any SecondFactorStore { get }
    /// Console roles of users (`OperatorRoleStore`).
    var operatorRoles: any OperatorRoleStore { get }
    /// Organizations, their roles, members and invitations.
    var organizations: any OrganizationStore { get }
    /// Organizations' email-domain claims.
    var organizationDomains: any OrganizationDomainStore { get }
    /// Console sessions (`ConsoleSessionStore`).
    var consoleSessions: any ConsoleSessionStore { get }

    /// Deletes what can no longer be used: pending requests, codes, nonces, sessions and grant
    /// families (with their tokens) that expired or ended before `before`, throttle hits older
    /// than `before`, outbox messages sent or given up before `before`, passkey challenges, email challenges, organization invitations and console sessions that expired before `before`. Returns the number of
    /// rows deleted. Keep `before` well in the past of now
    /// (e.g. a day), so replays of recently expired codes and tokens are still recognised.
    @discardableResult
    func purge(before: Date) throws -> Int

    /// `purge(before:)` at `pace` (`purge(before:)` is this at `PurgePace.standard`): rows per
    /// transaction, the rest between batches, and a `wait` that may stop the purge between two
    /// batches (then it returns what it deleted so far).
    @discardableResult
    func purge(before: Date, pace: PurgePace) throws -> Int
}
