import Foundation
import SignetMacros

/// A signed-in console operator (`console_sessions`): the server-side half of the console's
/// cookie, which holds only an opaque handle (`OpaqueTokens.Kind.console`). It is no API
/// credential: the admin API never reads this table.
@MemberwiseInit
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// Keyed hash of the handle in the console's cookie.
    public var idHash: [UInt8]
    /// The operator.
    public var userID: String
    /// The public id of the grant family the console's sign-in made: revoking it ends the session.
    public var grantID: String
    /// The admin scopes the sign-in was granted (space-separated); the role narrows them per request.
    public var scope: String
    /// Keyed hash of the browser-binding cookie the sign-in started with: the handle counts only
    /// beside it.
    public var bindingHash: [UInt8]
    /// When the operator signed in.
    public var createdAt: Date
    /// When the session ends, whatever happens.
    public var expiresAt: Date
}

/// Console sessions; a row goes with its user (ON DELETE CASCADE) and is purged once expired.
public protocol ConsoleSessionStore: Sendable {
    /// Stores a new session. Throws `.duplicate` if the hash exists.
    func insertConsoleSession(_ record: ConsoleSessionRecord) throws

    /// The session stored under `idHash` when `now < expiresAt`, else nil.
    func consoleSession(idHash: [UInt8], now: Date) throws -> ConsoleSessionRecord?

    /// Deletes the session (sign-out); false when there was none.
    @discardableResult
    func deleteConsoleSession(idHash: [UInt8]) throws -> Bool
}
