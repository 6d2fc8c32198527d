import Foundation
import SignetStore

/// Local accounts and federated links over a SQL database (`users`, `federated_identities`).
public struct SQLUserStore: UserStore {
    let database: any SQLDatabase

    static let userColumns = """
        id, email, email_verified, password_hash, name, given_name, family_name, disabled_at, created_at, updated_at
        """

    static func decodeUser(_ row: any SQLRow) throws -> UserRecord {
        try decodeUser(row, first: 0)
    }

    /// The user in `userColumns` order, starting at column `first`.
    static func decodeUser(_ row: any SQLRow, first: Int32) throws -> UserRecord {
        UserRecord(
            id: try row.text(first), email: try row.text(first + 1), emailVerified: try row.bool(first + 2),
            passwordHash: row.optionalText(first + 3), name: row.optionalText(first + 4), givenName: row.optionalText(first + 5),
            familyName: row.optionalText(first + 6), disabledAt: try row.optionalDate(first + 7), createdAt: try row.date(first + 8),
            updatedAt: try row.date(first + 9))
    }

    static let federatedColumns = "connection_id, issuer, subject, user_id, email, created_at"

    static func decodeFederated(_ row: any SQLRow) throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            connectionID: try row.text(0), issuer: try row.text(1), subject: try row.text(2),
            userID: try row.text(3), email: row.optionalText(4), createdAt: try row.date(5))
    }

    static let insertUserSQL = SQLTemplate.insert(into: "users", userColumns)
    static let byID = "SELECT \(userColumns) FROM users WHERE id = $1"
    /// The bearer check's one statement: no row when grant `$2` is not active at `$3`, else one
    /// row, whose columns are NULL when there is no user `$1`.
    static let byIDIfGrantActive = """
        SELECT \(userColumns) FROM (SELECT 1 AS one) AS g LEFT JOIN users ON id = $1
        WHERE \(SQLRefreshTokenStore.grantIsActive(grant: "$2", now: "$3"))
        """
    static let byEmail = "SELECT \(userColumns) FROM users WHERE email = $1"
    static let all = "SELECT \(userColumns) FROM users ORDER BY email"
    static let page = """
        SELECT \(userColumns) FROM users
        WHERE (CAST($1 AS TEXT) IS NULL OR id > $1)
          AND (CAST($2 AS TEXT) IS NULL OR lower(email) LIKE $2 ESCAPE '\\' OR lower(COALESCE(name, '')) LIKE $2 ESCAPE '\\')
        ORDER BY id LIMIT $3
        """
    static let setPasswordSQL = "UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3"
    static let setDisabledSQL = "UPDATE users SET disabled_at = $1, updated_at = $2 WHERE id = $3"
    static let updateProfileSQL = """
        UPDATE users SET name = $1, given_name = $2, family_name = $3, email_verified = $4, updated_at = $5
        WHERE id = $6
        """
    static let changeEmailSQL = """
        UPDATE users SET email = $1, email_verified = $2, updated_at = $3 WHERE id = $4 AND email = $5
        """
    static let insertFederatedSQL = SQLTemplate.insert(into: "federated_identities", federatedColumns)
    static let federatedByKey = """
        SELECT \(federatedColumns) FROM federated_identities
        WHERE connection_id = $1 AND issuer = $2 AND subject = $3
        """
    static let federatedByUser = """
        SELECT \(federatedColumns) FROM federated_identities WHERE user_id = $1
        ORDER BY created_at, connection_id, issuer, subject
        """
    static let setUpstreamTokenSQL = """
        UPDATE federated_identities SET upstream_token = $1 WHERE connection_id = $2 AND issuer = $3 AND subject = $4
        """
    static let upstreamTokensByUser = """
        SELECT \(federatedColumns), upstream_token FROM federated_identities
        WHERE user_id = $1 AND upstream_token IS NOT NULL ORDER BY created_at, connection_id
        """
    static let deleteFederated = "DELETE FROM federated_identities WHERE user_id = $1 AND connection_id = $2"
    /// What goes with a user (refresh tokens go with their grants: ON DELETE CASCADE), then the
    /// user; grants through `grants_user` (`SQLRefreshTokenStore.byUser`).
    static let deleteWithUser = ["authorization_codes", "grants", "sessions", "consents", "federated_identities"]
        .map { "DELETE FROM \($0) WHERE \($0 == "grants" ? SQLRefreshTokenStore.byUser(1) : "user_id = $1")" }
    static let deleteUserSQL = "DELETE FROM users WHERE id = $1"

    static func insertUserRow(_ user: UserRecord, _ db: any SQLConnection) throws {
        try db.run(insertUserSQL, userBinds(user))
    }

    /// `user` as `insertUserSQL`'s parameters (also `SQLStores.bulkInsert`'s).
    static func userBinds(_ user: UserRecord) -> [any SQLBindable] {
        [
            user.id, user.email.lowercased(), user.emailVerified, user.passwordHash, user.name, user.givenName,
            user.familyName, user.disabledAt, user.createdAt, user.updatedAt,
        ]
    }

    static func insertFederatedRow(_ identity: FederatedIdentityRecord, _ db: any SQLConnection) throws {
        try db.run(insertFederatedSQL, [
            identity.connectionID, identity.issuer, identity.subject, identity.userID, identity.email, identity.createdAt,
        ])
    }

    /// See `UserStore.insertUser(_:)`.
    public func insertUser(_ user: UserRecord) throws {
        try database.write { db in try Self.insertUserRow(user, db) }
    }

    /// See `UserStore.user(id:)`.
    public func user(id: String) throws -> UserRecord? {
        try database.read { db in try db.one(Self.byID, [id], Self.decodeUser) }
    }

    /// See `UserStore.user(id:ifGrantActive:now:)`.
    public func user(id: String, ifGrantActive grantID: String, now: Date) throws -> (grantActive: Bool, user: UserRecord?) {
        // One statement: one snapshot, one round trip.
        // No row: the grant is not active; a row of NULLs: no such user.
        let row: UserRecord?? = try database.read { db in
            try db.one(Self.byIDIfGrantActive, [id, grantID, now]) { row in row.optionalText(0) == nil ? nil : try Self.decodeUser(row) }
        }
        guard let user = row else { return (false, nil) }
        return (true, user)
    }

    /// See `UserStore.user(email:)`.
    public func user(email: String) throws -> UserRecord? {
        try database.read { db in try db.one(Self.byEmail, [email.lowercased()], Self.decodeUser) }
    }

    /// See `UserStore.allUsers()`.
    public func allUsers() throws -> [UserRecord] {
        try database.read { db in try db.query(Self.all, [], Self.decodeUser) }
    }

    /// See `UserStore.users(after:matching:limit:)`: `LIKE` with `%`, `_` and `\` escaped.
    public func users(after afterID: String?, matching: String?, limit: Int) throws -> [UserRecord] {
        let pattern = matching.map { text -> String in
            var escaped = ""
            for character in text.lowercased() {
                if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
                escaped.append(character)
            }
            return "%" + escaped + "%"
        }
        return try database.read { db in try db.query(Self.page, [afterID, pattern, max(0, limit)], Self.decodeUser) }
    }

    /// See `UserStore.setPassword(userID:passwordHash:now:)`.
    public func setPassword(userID: String, passwordHash: String?, now: Date) throws {
        try updateUser(Self.setPasswordSQL, [passwordHash, now, userID])
    }

    /// See `UserStore.setDisabled(userID:disabledAt:now:)`.
    public func setDisabled(userID: String, disabledAt: Date?, now: Date) throws {
        try updateUser(Self.setDisabledSQL, [disabledAt, now, userID])
    }

    /// See `UserStore.updateProfile(userID:name:givenName:familyName:emailVerified:now:)`.
    public func updateProfile(userID: String, name: String?, givenName: String?, familyName: String?,
                              emailVerified: Bool, now: Date) throws {
        try updateUser(Self.updateProfileSQL, [name, givenName, familyName, emailVerified, now, userID])
    }

    /// See `UserStore.changeEmail(userID:from:to:now:notice:)`: the conditional `UPDATE` and the
    /// mail in one transaction; the unique index on `email` refuses an address another account has.
    public func changeEmail(userID: String, from: String, to: String, now: Date, notice: OutboxMessageRecord?) throws -> Bool {
        try database.transaction { db in
            guard try db.run(Self.changeEmailSQL, [to, true, now, userID, from]) == 1 else { return false }
            if let notice { try SQLMailOutbox.enqueue(notice, on: db) }
            return true
        }
    }

    /// See `UserStore.insertFederatedIdentity(_:)`.
    public func insertFederatedIdentity(_ identity: FederatedIdentityRecord) throws {
        try database.write { db in try Self.insertFederatedRow(identity, db) }
    }

    /// See `UserStore.insertUser(_:withFederatedIdentity:)`.
    public func insertUser(_ user: UserRecord, withFederatedIdentity identity: FederatedIdentityRecord) throws {
        guard identity.userID == user.id else { throw StoreError.notFound }
        try database.transaction { db in
            try Self.insertUserRow(user, db)
            try Self.insertFederatedRow(identity, db)
        }
    }

    /// See `UserStore.federatedIdentity(connectionID:issuer:subject:)`.
    public func federatedIdentity(connectionID: String, issuer: String, subject: String) throws -> FederatedIdentityRecord? {
        try database.read { db in try db.one(Self.federatedByKey, [connectionID, issuer, subject], Self.decodeFederated) }
    }

    /// See `UserStore.federatedIdentities(userID:)`.
    public func federatedIdentities(userID: String) throws -> [FederatedIdentityRecord] {
        try database.read { db in try db.query(Self.federatedByUser, [userID], Self.decodeFederated) }
    }

    private func updateUser(_ sql: String, _ binds: [any SQLBindable]) throws {
        let changed = try database.write { db in try db.run(sql, binds) }
        guard changed == 1 else { throw StoreError.notFound }
    }

    /// See `UserStore.deleteFederatedIdentities(userID:connectionID:)`.
    public func deleteFederatedIdentities(userID: String, connectionID: String) throws -> Int {
        try database.write { db in try db.run(Self.deleteFederated, [userID, connectionID]) }
    }

    /// See `UserStore.setUpstreamToken(connectionID:issuer:subject:sealed:)`.
    public func setUpstreamToken(connectionID: String, issuer: String, subject: String, sealed: [UInt8]?) throws -> Bool {
        try database.write { db in try db.run(Self.setUpstreamTokenSQL, [sealed, connectionID, issuer, subject]) == 1 }
    }

    /// See `UserStore.upstreamTokens(userID:)`.
    public func upstreamTokens(userID: String) throws -> [(identity: FederatedIdentityRecord, sealed: [UInt8])] {
        try database.read { db in
            try db.query(Self.upstreamTokensByUser, [userID]) { row in (try Self.decodeFederated(row), try row.blob(6)) }
        }
    }

    /// See `UserStore.deleteUser(id:)`: everything of the user in one transaction.
    public func deleteUser(id: String) throws -> Bool {
        try database.transaction { db in try Self.deleteUser(id: id, on: db) }
    }

    /// Deletes the user and everything that names it on `db`, inside the caller's transaction
    /// (`SQLStores.transaction`); false if there was no such user.
    public static func deleteUser(id: String, on db: any SQLConnection) throws -> Bool {
        for statement in deleteWithUser { try db.run(statement, [id]) }
        return try db.run(deleteUserSQL, [id]) > 0
    }
}
