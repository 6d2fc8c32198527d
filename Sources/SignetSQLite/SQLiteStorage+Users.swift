import Foundation
import SignetStore

extension SQLiteStorage: UserStore {
    static let userColumns = """
        id, email, email_verified, password_hash, name, given_name, family_name, disabled_at, created_at, updated_at
        """

    static func decodeUser(_ row: SQLiteRow) throws -> UserRecord {
        UserRecord(
            id: try row.text(0), email: try row.text(1), emailVerified: try row.bool(2),
            passwordHash: row.optionalText(3), name: row.optionalText(4), givenName: row.optionalText(5),
            familyName: row.optionalText(6), disabledAt: row.optionalDate(7), createdAt: try row.date(8),
            updatedAt: try row.date(9))
    }

    static let federatedColumns = "connection_id, issuer, subject, user_id, email, created_at"

    static func decodeFederated(_ row: SQLiteRow) throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            connectionID: try row.text(0), issuer: try row.text(1), subject: try row.text(2),
            userID: try row.text(3), email: row.optionalText(4), createdAt: try row.date(5))
    }

    /// See `UserStore.insertUser(_:)`.
    public func insertUser(_ user: UserRecord) throws {
        try write { db in
            try db.run("INSERT INTO users (\(Self.userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                user.id, user.email.lowercased(), user.emailVerified, user.passwordHash, user.name, user.givenName,
                user.familyName, user.disabledAt, user.createdAt, user.updatedAt,
            ])
        }
    }

    /// See `UserStore.user(id:)`.
    public func user(id: String) throws -> UserRecord? {
        try read { db in try db.one("SELECT \(Self.userColumns) FROM users WHERE id = ?", [id], Self.decodeUser) }
    }

    /// See `UserStore.user(email:)`.
    public func user(email: String) throws -> UserRecord? {
        try read { db in
            try db.one("SELECT \(Self.userColumns) FROM users WHERE email = ?", [email.lowercased()], Self.decodeUser)
        }
    }

    /// See `UserStore.allUsers()`.
    public func allUsers() throws -> [UserRecord] {
        try read { db in try db.query("SELECT \(Self.userColumns) FROM users ORDER BY email", [], Self.decodeUser) }
    }

    /// See `UserStore.setPassword(userID:passwordHash:now:)`.
    public func setPassword(userID: String, passwordHash: String?, now: Date) throws {
        try updateUser("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", [passwordHash, now, userID])
    }

    /// See `UserStore.setDisabled(userID:disabledAt:now:)`.
    public func setDisabled(userID: String, disabledAt: Date?, now: Date) throws {
        try updateUser("UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?", [disabledAt, now, userID])
    }

    /// See `UserStore.updateProfile(userID:name:givenName:familyName:emailVerified:now:)`.
    public func updateProfile(userID: String, name: String?, givenName: String?, familyName: String?,
                              emailVerified: Bool, now: Date) throws {
        try updateUser("""
            UPDATE users SET name = ?, given_name = ?, family_name = ?, email_verified = ?, updated_at = ?
            WHERE id = ?
            """, [name, givenName, familyName, emailVerified, now, userID])
    }

    /// See `UserStore.insertFederatedIdentity(_:)`.
    public func insertFederatedIdentity(_ identity: FederatedIdentityRecord) throws {
        try write { db in
            try db.run("INSERT INTO federated_identities (\(Self.federatedColumns)) VALUES (?, ?, ?, ?, ?, ?)", [
                identity.connectionID, identity.issuer, identity.subject, identity.userID, identity.email,
                identity.createdAt,
            ])
        }
    }

    /// See `UserStore.insertUser(_:withFederatedIdentity:)`.
    public func insertUser(_ user: UserRecord, withFederatedIdentity identity: FederatedIdentityRecord) throws {
        guard identity.userID == user.id else { throw StoreError.notFound }
        try write { db in
            try db.immediateTransaction {
                _ = try db.run("INSERT INTO users (\(Self.userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                    user.id, user.email.lowercased(), user.emailVerified, user.passwordHash, user.name, user.givenName,
                    user.familyName, user.disabledAt, user.createdAt, user.updatedAt,
                ])
                _ = try db.run("INSERT INTO federated_identities (\(Self.federatedColumns)) VALUES (?, ?, ?, ?, ?, ?)", [
                    identity.connectionID, identity.issuer, identity.subject, identity.userID, identity.email,
                    identity.createdAt,
                ])
            }
        }
    }

    /// See `UserStore.federatedIdentity(connectionID:issuer:subject:)`.
    public func federatedIdentity(connectionID: String, issuer: String, subject: String) throws -> FederatedIdentityRecord? {
        try read { db in
            try db.one("""
                SELECT \(Self.federatedColumns) FROM federated_identities
                WHERE connection_id = ? AND issuer = ? AND subject = ?
                """, [connectionID, issuer, subject], Self.decodeFederated)
        }
    }

    /// See `UserStore.federatedIdentities(userID:)`.
    public func federatedIdentities(userID: String) throws -> [FederatedIdentityRecord] {
        try read { db in
            try db.query("""
                SELECT \(Self.federatedColumns) FROM federated_identities WHERE user_id = ?
                ORDER BY created_at, connection_id, issuer, subject
                """, [userID], Self.decodeFederated)
        }
    }

    private func updateUser(_ sql: String, _ binds: [any SQLiteBindable]) throws {
        let changed = try write { db in try db.run(sql, binds) }
        guard changed == 1 else { throw StoreError.notFound }
    }

    /// See `UserStore.deleteFederatedIdentities(userID:connectionID:)`.
    public func deleteFederatedIdentities(userID: String, connectionID: String) throws -> Int {
        try write { db in
            try db.run("DELETE FROM federated_identities WHERE user_id = ? AND connection_id = ?", [userID, connectionID])
        }
    }

    /// See `UserStore.deleteUser(id:)`. Refresh tokens go with their grants (ON DELETE CASCADE),
    /// links with the user.
    public func deleteUser(id: String) throws -> Bool {
        try write { db in
            try db.immediateTransaction {
                for table in ["authorization_codes", "grants", "sessions", "consents", "federated_identities"] {
                    _ = try db.run("DELETE FROM \(table) WHERE user_id = ?", [id])
                }
                return try db.run("DELETE FROM users WHERE id = ?", [id]) > 0
            }
        }
    }
}
