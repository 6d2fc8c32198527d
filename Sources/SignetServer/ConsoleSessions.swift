import Foundation
import SignetCore
import SignetCrypto
import SignetStore

/// The console's sign-ins, kept on the server (`ConsoleSessionStore`). The cookie holds only an
/// opaque handle (`sgo_…`, stored as its keyed hash) that counts only beside the browser-binding
/// cookie the sign-in started with; it is no API credential (`/admin/v1` never looks it up). The
/// access token the sign-in redeemed is read once, for the operator, the grant and the scopes,
/// and dropped: it never leaves the server.
struct ConsoleSessions: Sendable {
    let store: any ConsoleSessionStore
    let tokens: OpaqueTokens
    let authorizer: AdminAuthorizer
    let refreshTokens: any RefreshTokenStore
    let auditor: Auditor
    let clock: any Clock

    /// How long a console session lasts, whatever happens; a fresh sign-in after.
    static let lifetime = ConsoleClient.tokenLifetime

    init(application: SignetApplication, authorizer: AdminAuthorizer) {
        let environment = application.environment
        store = environment.storage.consoleSessions
        tokens = application.authorizationServer.tokens
        self.authorizer = authorizer
        refreshTokens = environment.storage.refreshTokens
        auditor = application.authorizationServer.auditor
        clock = environment.clock
    }

    /// Starts a session for the operator of the console's freshly redeemed `accessToken`, bound to
    /// the browser's `binding` cookie value; returns the handle for the cookie. Refused (`no_role`
    /// among others) before anything is stored.
    func start(accessToken: String, binding: String) throws(AdminError) -> String {
        let invalid = AdminError.invalidToken("The console sign-in did not complete.")
        guard let jwt = try? authorizer.verifier.verify(accessToken), jwt.claims["client_id"]?.stringValue == ConsoleClient.id,
              let userID = jwt.claims.sub, userID != ConsoleClient.id, let grantID = jwt.claims["gid"]?.stringValue else { throw invalid }
        let scope = jwt.claims["scope"]?.stringValue ?? ""
        _ = try authorizer.operatorPrincipal(userID: userID, grantID: grantID, granted: Self.scopes(scope))
        let handle = tokens.make(.console)
        let now = clock.now
        let record = ConsoleSessionRecord(idHash: tokens.hash(handle), userID: userID, grantID: grantID, scope: scope,
                                          bindingHash: tokens.hash(binding), createdAt: now,
                                          expiresAt: now.addingTimeInterval(TimeInterval(Self.lifetime)))
        do { try store.insertConsoleSession(record) } catch { throw AdminError.serverError }
        return handle
    }

    /// The live session `handle` names when presented with its browser's `binding`, or the refusal.
    func session(handle: String?, binding: String?) throws(AdminError) -> ConsoleSessionRecord {
        let none = AdminError.invalidToken("No console session.")
        guard let handle, let binding, tokens.hasShape(handle, of: .console) else { throw none }
        let record: ConsoleSessionRecord?
        do { record = try store.consoleSession(idHash: tokens.hash(handle), now: clock.now) } catch { throw AdminError.serverError }
        // A handle planted without the browser it was made for is no session.
        guard let record, constantTimeEquals(record.bindingHash, tokens.hash(binding)) else { throw none }
        return record
    }

    /// The operator of `record` and what it may do now (`AdminAuthorizer.operatorPrincipal`).
    func principal(_ record: ConsoleSessionRecord) throws(AdminError) -> AdminPrincipal {
        try authorizer.operatorPrincipal(userID: record.userID, grantID: record.grantID, granted: Self.scopes(record.scope))
    }

    /// Sign-out: deletes the session and revokes its sign-in's grant (as the console's client
    /// would at `/revoke`, RFC 7009 §2.1), so nothing made from that sign-in works any more.
    func end(_ record: ConsoleSessionRecord) throws {
        try store.deleteConsoleSession(idHash: record.idHash)
        if try refreshTokens.revokeGrant(id: record.grantID, reason: "console_signed_out", now: clock.now) {
            auditor.record("token_revoked", actor: "console:" + record.userID, subject: record.userID, client: ConsoleClient.id,
                           detail: ["grant": .string(record.grantID), "token_type": "console_session"])
        }
    }

    static func scopes(_ scope: String) -> Set<String> { Set(scope.split(separator: " ").map(String.init)) }
}
