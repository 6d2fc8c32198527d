import Foundation
import SignetStore

extension PostgresStorage: UserStore {
    static let userColumns = """
        id, email, email_verified, password_hash, name, given_name, family_name, disabled_at, created_at, updated_at
        """

    static func decodeUser(_ row: PostgresRow) throws -> UserRecord {
        UserRecord(
            id: try row.text(0), email: try row.text(1), emailVerified: try row.bool(2),
            passwordHash: row.optionalText(3), name: row.optionalText(4), givenName: row.optionalText(5),
            familyName: row.optionalText(6), disabledAt: try row.optionalDate(7), createdAt: try row.date(8),
            updatedAt: try row.date(9))
    }

    static let federatedColumns = "connection_id, issuer, subject, user_id, email, created_at"

    static func decodeFederated(_ row: PostgresRow) throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            connectionID: try row.text(0), issuer: try row.text(1), subject: try row.text(2),
            userID: try row.text(3), email: row.optionalText(4), createdAt: try row.date(5))
    }

    /// See `UserStore.insertUser(_:)`.
    public func insertUser(_ user: UserRecord) throws {
        try withConnection { db in
            try db.run("INSERT INTO users (\(Self.userColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", [
                user.id, user.email.lowercased(), user.emailVerified, user.passwordHash, user.name, user.givenName,
                user.familyName, user.disabledAt, user.createdAt, user.updatedAt,
            ])
        }
    }

    /// See `UserStore.user(id:)`.
    public func user(id: String) throws -> UserRecord? {
        try withConnection { db in try db.one("SELECT \(Self.userColumns) FROM users WHERE id = $1", [id], Self.decodeUser) }
    }

    /// See `UserStore.user(email:)`.
    public func user(email: String) throws -> UserRecord? {
        try withConnection { db in
            try db.one("SELECT \(Self.userColumns) FROM users WHERE email = $1", [email.lowercased()], Self.decodeUser)
        }
    }

    /// See `UserStore.allUsers()`.
    public func allUsers() throws -> [UserRecord] {
        try withConnection { db in try db.query("SELECT \(Self.userColumns) FROM users ORDER BY email", [], Self.decodeUser) }
    }

    /// See `UserStore.setPassword(userID:passwordHash:now:)`.
    public func setPassword(userID: String, passwordHash: String?, now: Date) throws {
        try updateUser("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3", [passwordHash, now, userID])
    }

    /// See `UserStore.setDisabled(userID:disabledAt:now:)`.
    public func setDisabled(userID: String, disabledAt: Date?, now: Date) throws {
        try updateUser("UPDATE users SET disabled_at = $1, updated_at = $2 WHERE id = $3", [disabledAt, now, userID])
    }

    /// See `UserStore.updateProfile(userID:name:givenName:familyName:emailVerified:now:)`.
    public func updateProfile(userID: String, name: String?, givenName: String?, familyName: String?,
                              emailVerified: Bool, now: Date) throws {
        try updateUser("""
            UPDATE users SET name = $1, given_name = $2, family_name = $3, email_verified = $4, updated_at = $5
            WHERE id = $6
            """, [name, givenName, familyName, emailVerified, now, userID])
    }

    /// See `UserStore.insertFederatedIdentity(_:)`.
    public func insertFederatedIdentity(_ identity: FederatedIdentityRecord) throws {
        try withConnection { db in
            try db.run("INSERT INTO federated_identities (\(Self.federatedColumns)) VALUES ($1, $2, $3, $4, $5, $6)", [
                identity.connectionID, identity.issuer, identity.subject, identity.userID, identity.email,
                identity.createdAt,
            ])
        }
    }

    /// See `UserStore.insertUser(_:withFederatedIdentity:)`.
    public func insertUser(_ user: UserRecord, withFederatedIdentity identity: FederatedIdentityRecord) throws {
        guard identity.userID == user.id else { throw StoreError.notFound }
        try withConnection { db in
            try db.transaction {
                _ = try db.run("INSERT INTO users (\(Self.userColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", [
                    user.id, user.email.lowercased(), user.emailVerified, user.passwordHash, user.name, user.givenName,
                    user.familyName, user.disabledAt, user.createdAt, user.updatedAt,
                ])
                _ = try db.run("INSERT INTO federated_identities (\(Self.federatedColumns)) VALUES ($1, $2, $3, $4, $5, $6)", [
                    identity.connectionID, identity.issuer, identity.subject, identity.userID, identity.email,
                    identity.createdAt,
                ])
            }
        }
    }

    /// See `UserStore.federatedIdentity(connectionID:issuer:subject:)`.
    public func federatedIdentity(connectionID: String, issuer: String, subject: String) throws -> FederatedIdentityRecord? {
        try withConnection { db in
            try db.one("""
                SELECT \(Self.federatedColumns) FROM federated_identities
                WHERE connection_id = $1 AND issuer = $2 AND subject = $3
                """, [connectionID, issuer, subject], Self.decodeFederated)
        }
    }

    /// See `UserStore.federatedIdentities(userID:)`.
    public func federatedIdentities(userID: String) throws -> [FederatedIdentityRecord] {
        try withConnection { db in
            try db.query("""
                SELECT \(Self.federatedColumns) FROM federated_identities WHERE user_id = $1
                ORDER BY created_at, connection_id, issuer, subject
                """, [userID], Self.decodeFederated)
        }
    }

    private func updateUser(_ sql: String, _ binds: [any PostgresBindable]) throws {
        let changed = try withConnection { db in try db.run(sql, binds) }
        guard changed == 1 else { throw StoreError.notFound }
    }

    /// See `UserStore.deleteFederatedIdentities(userID:connectionID:)`.
    public func deleteFederatedIdentities(userID: String, connectionID: String) throws -> Int {
        try withConnection { db in
            try db.run("DELETE FROM federated_identities WHERE user_id = $1 AND connection_id = $2", [userID, connectionID])
        }
    }

    /// See `UserStore.deleteUser(id:)`. Refresh tokens go with their grants (ON DELETE CASCADE),
    /// links with the user.
    public func deleteUser(id: String) throws -> Bool {
        try withConnection { db in
            try db.transaction {
                for table in ["authorization_codes", "grants", "sessions", "consents", "federated_identities"] {
                    _ = try db.run("DELETE FROM \(table) WHERE user_id = $1", [id])
                }
                return try db.run("DELETE FROM users WHERE id = $1", [id]) > 0
            }
        }
    }
}
