import Foundation
import SignetStore

/// Grant families and refresh tokens over a SQL database (`grants`, `grant_profiles`,
/// `refresh_tokens`). A token row references its grant by the grant's integer key
/// (`refresh_tokens.grant_ref` = `grants.id`, migration 18); the text `grant_id` is the public
/// handle, and every token read returns it from the join with the grant. A grant references its
/// client, scope, resources and `amr`, which most families share, by the integer key of their
/// `grant_profiles` row (`grants.profile_ref`, migration 20); every grant read joins it.
public struct SQLRefreshTokenStore: RefreshTokenStore {
    let database: any SQLDatabase

    /// A grant read from `grantJoin`, in `decodeGrant` order.
    static let grantColumns = """
        g.grant_id, p.client_id, g.user_id, p.scope, g.created_at, g.absolute_expires_at, g.revoked_at, g.revoke_reason,
        g.session_id, g.auth_time, p.resources, p.amr, g.organization_id
        """
    /// `grants g` joined to its `grant_profiles p`, the join every grant read makes.
    static let grantJoin = "grants g JOIN grant_profiles p ON p.id = g.profile_ref"

    static func decodeGrant(_ row: any SQLRow) throws -> GrantRecord {
        try decodeGrant(row, first: 0)
    }

    /// The grant in `grantColumns` order, starting at column `first`.
    static func decodeGrant(_ row: any SQLRow, first: Int32) throws -> GrantRecord {
        let terms = GrantTerms(
            clientID: try row.text(first + 1), userID: try row.text(first + 2), scope: try row.text(first + 3),
            resources: try row.stringArray(first + 10), amr: try row.words(first + 11), authTime: try row.date(first + 9),
            sessionID: row.optionalText(first + 8), organizationID: row.optionalText(first + 12))
        return GrantRecord(
            grantID: try row.text(first), terms: terms, createdAt: try row.date(first + 4),
            absoluteExpiresAt: try row.date(first + 5), revokedAt: try row.optionalDate(first + 6),
            revokeReason: row.optionalText(first + 7))
    }

    /// The columns a grant is written with, in `grantBinds` order; `profile_ref` from the profile
    /// found by the grant's client, scope, resources and `amr` (`insertGrantSQL`), or bound
    /// (`SQLStores.bulkInsert`).
    static let grantInsertColumns = """
        grant_id, user_id, created_at, absolute_expires_at, revoked_at, revoke_reason, session_id, auth_time,
        organization_id, profile_ref
        """
    /// Adds a profile unless it is there: a racing insert of the same one waits for the other
    /// transaction and, if that commits, does nothing (the UNIQUE index of `key_hash`), so a read
    /// after it finds exactly one row.
    static let insertProfileSQL = """
        INSERT INTO grant_profiles (key_hash, client_id, scope, resources, amr) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (key_hash) DO NOTHING
        """
    /// The key of the profile whose `GrantProfile.digest` is `$1`.
    static let profileKey = "SELECT id FROM grant_profiles WHERE key_hash = $1"

    /// The columns a token is written with, in `tokenBinds` order (`grant_ref` from the grant's public id).
    static let tokenColumns = """
        token_hash, grant_ref, parent_hash, scope, created_at, expires_at, rotated_at, successor_hash
        """
    /// `refresh_tokens t` joined to its `grants g` and their `grant_profiles p`, the join every
    /// token read makes (a token's NULL scope is its family's, the profile's).
    static let tokenJoin = "refresh_tokens t JOIN grants g ON g.id = t.grant_ref JOIN grant_profiles p ON p.id = g.profile_ref"
    /// A token read from `tokenJoin`, in `decodeToken` order: the family's public id from the
    /// grant, and a NULL scope is the family's (migration 17 stores a token's scope only where it
    /// differs from its grant's).
    static let tokenSelect = """
        t.token_hash, g.grant_id, t.parent_hash, COALESCE(t.scope, p.scope), t.created_at, t.expires_at, t.rotated_at,
        t.successor_hash
        """
    /// One row of `SQLStores.bulkInsert`'s multi-row insert of `tokenBinds`: the grant's key and
    /// scope looked up by its public id (a missing grant fails the NOT NULL), the scope stored only
    /// when it is not the grant's.
    static let tokenTuple = """
        ($1, (SELECT id FROM grants WHERE grant_id = $2), $3,
         CASE WHEN $4 = (SELECT p.scope FROM \(grantJoin) WHERE g.grant_id = $2) THEN NULL ELSE $4 END, $5, $6, $7, $8)
        """

    /// A token in `tokenSelect` order.
    static func decodeToken(_ row: any SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try row.blob(0), grantID: try row.text(1), parentHash: try row.optionalBlob(2),
            scope: try row.text(3), createdAt: try row.date(4), expiresAt: try row.date(5),
            rotatedAt: try row.optionalDate(6), successorHash: try row.optionalBlob(7))
    }

    /// A grant (`grantBinds`, then its profile's digest) under its profile's key, found by the
    /// UNIQUE index of `key_hash`; no row is inserted when there is no such profile (`insertGrant`
    /// adds it first).
    static let insertGrantSQL = """
        INSERT INTO grants (\(grantInsertColumns))
        SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, id FROM grant_profiles WHERE key_hash = $10
        """
    static let grantByID = "SELECT \(grantColumns) FROM \(grantJoin) WHERE g.grant_id = $1"
    /// The presented token with its grant and its user's disabled flag, both rows locked, in one
    /// statement (PostgreSQL locks the token row, then the grant row: the order every rotation
    /// takes; not the profile row, which many families share and nothing changes). The grant always
    /// exists for a token (`ON DELETE CASCADE`), and its profile for a grant (never deleted), so
    /// the inner joins lose nothing: no row is an unknown token.
    /// The grant's key comes next (column 22), for the successor's insert (`insertSuccessorSQL`).
    /// `withUser`: the user's whole row follows (columns 23–32, `userColumns`, NULL when there is
    /// no such user) from a join in place of the subquery, for a refresh that issues an ID token
    /// (the user row is read either way; not locked). `$1` is the token's hash, `$2` the grant id
    /// its string names (`located`).
    static func tokenAndGrantForRotation(_ located: Bool, withUser: Bool) -> String {
        """
        SELECT \(tokenSelect),
            \(grantColumns),
            \(withUser ? "u.disabled_at IS NOT NULL" : "(SELECT disabled_at IS NOT NULL FROM users WHERE id = g.user_id)"),
            t.grant_ref\(withUser ? ", " + userColumns : "")
        FROM \(tokenJoin)\(withUser ? " LEFT JOIN users u ON u.id = g.user_id" : "")
        WHERE \(tokenWhere(located)){for_update:t, g}
        """
    }
    static let rotationLocated = tokenAndGrantForRotation(true, withUser: false)
    static let rotationLegacy = tokenAndGrantForRotation(false, withUser: false)
    static let rotationLocatedWithUser = tokenAndGrantForRotation(true, withUser: true)
    static let rotationLegacyWithUser = tokenAndGrantForRotation(false, withUser: true)
    /// The user's columns as the rotation's join names them (`u.`), in `SQLUserStore.decodeUser` order.
    static let userColumns = SQLUserStore.userColumns.split(separator: ",")
        .map { "u." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")
    /// The statement a rotation reads its rows with (`tokenAndGrantForRotation`).
    static func rotationRead(located: Bool, withUser: Bool) -> String {
        switch (located, withUser) {
        case (true, false): rotationLocated
        case (false, false): rotationLegacy
        case (true, true): rotationLocatedWithUser
        case (false, true): rotationLegacyWithUser
        }
    }
    /// How a token is found (migration 19): one whose string names its family (`$2`, the grant's
    /// public id) under that grant, by the primary key (`grant_ref`, `token_hash`); one issued
    /// before migration 19 (`$2` not bound) by its hash through `refresh_tokens_legacy`, which
    /// holds only those rows.
    static func tokenWhere(_ located: Bool) -> String {
        located ? "g.grant_id = $2 AND t.token_hash = $1" : "t.token_hash = $1 AND t.legacy = 1"
    }
    /// The parameters of a token read by `tokenWhere`.
    static func tokenKey(_ hash: [UInt8], _ grantID: String?) -> [any SQLBindable] {
        grantID.map { [hash, $0] } ?? [hash]
    }
    /// What makes grant `grant` active at `now` (two placeholders): not revoked, not past its
    /// absolute expiry. `activeGrant` and the bearer check's user read (`SQLUserStore`) both ask it.
    static func grantIsActive(grant: String, now: String) -> String {
        "EXISTS (SELECT 1 FROM grants WHERE grant_id = \(grant) AND revoked_at IS NULL AND absolute_expires_at > \(now))"
    }
    static let activeGrant = "SELECT 1 WHERE \(grantIsActive(grant: "$1", now: "$2"))"
    /// A token of the family whose public id is `$2` (`tokenBinds`): one lookup of the grant (and
    /// its profile) gives its key and its scope; no row is inserted when there is no such grant.
    static let insertTokenSQL = """
        INSERT INTO refresh_tokens (\(tokenColumns))
        SELECT $1, g.id, $3, CASE WHEN $4 = p.scope THEN NULL ELSE $4 END, $5, $6, $7, $8 FROM \(grantJoin) WHERE g.grant_id = $2
        """
    /// A rotation's successor, whose grant the rotation has read: its key and the stored scope
    /// (NULL for the grant's) are bound (`successorBinds`), no lookup.
    static let insertSuccessorSQL = "INSERT INTO refresh_tokens (\(tokenColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    static let tokenLocated = "SELECT \(tokenSelect) FROM \(tokenJoin) WHERE \(tokenWhere(true))"
    static let tokenLegacy = "SELECT \(tokenSelect) FROM \(tokenJoin) WHERE \(tokenWhere(false))"
    /// A token of the family whose key is `$1` (a rotation's successor), by the primary key.
    static let tokenInFamily = "SELECT \(tokenSelect) FROM \(tokenJoin) WHERE t.grant_ref = $1 AND t.token_hash = $2"
    static let markRotated = """
        UPDATE refresh_tokens SET rotated_at = $1, successor_hash = $2
        WHERE grant_ref = $3 AND token_hash = $4 AND rotated_at IS NULL
        """
    static let revokeByID = "UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE grant_id = $3 AND revoked_at IS NULL"
    /// The families of the user whose id is parameter `n`, through `grants_user`, which indexes
    /// the first 11 characters of the user id (migration 21): the prefix finds the rows, the rest
    /// of the id decides (together exactly `user_id = $n`). Every statement that finds grants by
    /// their user says it this way: a plain `user_id = …` would not use the index, and neither
    /// would the prefix beside `user_id = $n`, from which SQLite's constant propagation makes the
    /// prefix term `substr($n, 1, 11) = substr($n, 1, 11)` in a `SELECT` (it then read the
    /// families through `grants_expires`, every unexpired grant). `column` is the user id's
    /// column as the statement names it.
    static func byUser(_ n: Int, column: String = "user_id") -> String {
        "substr(\(column), 1, 11) = substr($\(n), 1, 11) AND substr(\(column), 12) = substr($\(n), 12)"
    }
    static let activeRefreshByUser = """
        SELECT \(grantColumns) FROM \(grantJoin)
        WHERE \(byUser(1, column: "g.user_id")) AND g.revoked_at IS NULL AND g.absolute_expires_at > $2
          AND EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.grant_ref = g.id)
        ORDER BY g.created_at DESC
        """
    static let revokeByUser = "UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE \(byUser(3)) AND revoked_at IS NULL"
    static let revokeByUserAndOrganization = """
        UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE \(byUser(3)) AND organization_id = $4 AND revoked_at IS NULL
        """
    static let revokeByOrganization = """
        UPDATE grants SET revoked_at = $1, revoke_reason = $2 WHERE organization_id = $3 AND revoked_at IS NULL
        """
    /// Through `grants_session`, which indexes the first 11 characters of the session id (migration
    /// 18): the prefix finds the rows, the whole id decides.
    static let revokeBySession = """
        UPDATE grants SET revoked_at = $1, revoke_reason = $2
        WHERE substr(session_id, 1, 11) = substr($3, 1, 11) AND session_id = $3 AND revoked_at IS NULL
        """
    /// One upsert, under the profile of the code's client and scope with no resources and no `amr`
    /// (which `revokeGrant(issuedFrom:)` adds first, unless it is there): a racing insert of the
    /// same grant waits, then takes the DO UPDATE branch. (A `SELECT` before `ON CONFLICT` needs its
    /// `WHERE` on SQLite, whose parser would otherwise read `ON` as a join's.)
    static let revokeIssuedFrom = """
        INSERT INTO grants (\(grantInsertColumns))
        SELECT $1, $2, $3, $3, $3, $4, $5, $6, NULL, id FROM grant_profiles WHERE key_hash = $7
        ON CONFLICT (grant_id) DO UPDATE SET
            revoked_at = COALESCE(grants.revoked_at, excluded.revoked_at),
            revoke_reason = COALESCE(grants.revoke_reason, excluded.revoke_reason)
        """

    /// See `RefreshTokenStore.createGrant(_:)`.
    public func createGrant(_ grant: GrantRecord) throws {
        try database.transaction { db in try Self.insertGrant(grant, db) }
    }

    /// See `RefreshTokenStore.createGrant(_:firstToken:)`.
    public func createGrant(_ grant: GrantRecord, firstToken: RefreshTokenRecord?) throws {
        try database.transaction { db in
            try Self.insertGrant(grant, db)
            if let firstToken { try Self.insertToken(firstToken, db) }
        }
    }

    /// Inserts `grant` under its profile, on a connection in a transaction: the profile is added
    /// unless it is there (`insertProfileSQL`: a lookup in its UNIQUE index for nearly every
    /// sign-in, whose profile exists), then the grant takes its key. Both are writes whose outcome
    /// nothing reads, so on PostgreSQL they go in the transaction's one pipeline with `BEGIN` and
    /// `COMMIT`: no round trip more than the grant's insert alone (a conflict still takes a value
    /// of the profiles' identity sequence, which leaves gaps, nothing else).
    static func insertGrant(_ grant: GrantRecord, _ db: any SQLConnection) throws {
        let profile = try GrantProfile(grant)
        try db.write(insertProfileSQL, profile.binds)
        try db.write(insertGrantSQL, grantBinds(grant) + [profile.key], changing: 1,
                     else: .backend("a grant's profile is missing"))
    }

    /// `grant`'s own columns, the first nine of `grantInsertColumns` (`insertGrantSQL` takes its
    /// profile's after them; `SQLStores.bulkInsert` the profile's key).
    static func grantBinds(_ grant: GrantRecord) -> [any SQLBindable] {
        [
            grant.grantID, grant.userID, grant.createdAt, grant.absoluteExpiresAt, grant.revokedAt, grant.revokeReason,
            grant.sessionID, grant.authTime, grant.organizationID,
        ]
    }

    /// See `RefreshTokenStore.grant(id:)`.
    public func grant(id: String) throws -> GrantRecord? {
        try database.read { db in try db.one(Self.grantByID, [id], Self.decodeGrant) }
    }

    /// See `RefreshTokenStore.isGrantActive(id:now:)`.
    public func isGrantActive(id: String, now: Date) throws -> Bool {
        try database.read { db in try db.one(Self.activeGrant, [id, now]) { _ in true } ?? false }
    }

    /// See `RefreshTokenStore.insertRefreshToken(_:)`.
    public func insertRefreshToken(_ token: RefreshTokenRecord) throws {
        try database.write { db in try Self.insertToken(token, db) }
    }

    static func insertToken(_ token: RefreshTokenRecord, _ db: any SQLConnection) throws {
        try db.write(insertTokenSQL, tokenBinds(token), changing: 1, else: .notFound)
    }

    /// `token` as `insertTokenSQL`'s parameters (also `SQLStores.bulkInsert`'s, row by row in `tokenTuple`).
    static func tokenBinds(_ token: RefreshTokenRecord) -> [any SQLBindable] {
        [
            token.tokenHash, token.grantID, token.parentHash, token.scope, token.createdAt, token.expiresAt,
            token.rotatedAt, token.successorHash,
        ]
    }

    /// `token` as `insertSuccessorSQL`'s parameters: in the family whose key is `grantKey`, its
    /// scope stored only if it is not `grantScope`.
    static func successorBinds(_ token: RefreshTokenRecord, grantKey: Int64, grantScope: String) -> [any SQLBindable] {
        [
            token.tokenHash, grantKey, token.parentHash, (token.scope == grantScope ? nil : token.scope) as String?,
            token.createdAt, token.expiresAt, token.rotatedAt, token.successorHash,
        ]
    }

    /// See `RefreshTokenStore.refreshToken(hash:grantID:)`.
    public func refreshToken(hash: [UInt8], grantID: String?) throws -> RefreshTokenRecord? {
        try database.read { db in
            try db.one(grantID == nil ? Self.tokenLegacy : Self.tokenLocated, Self.tokenKey(hash, grantID), Self.decodeToken)
        }
    }

    /// See `RefreshTokenStore.rotateRefreshToken(tokenHash:grantID:clientID:successorHash:successorExpiresAt:now:graceSeconds:)`.
    public func rotateRefreshToken(tokenHash: [UInt8], grantID: String?, clientID: String, successorHash: [UInt8],
                                   successorExpiresAt: Date, now: Date, graceSeconds: Int) throws -> RotationResult {
        try rotateRefreshToken(tokenHash: tokenHash, grantID: grantID, clientID: clientID, successorHash: successorHash,
                               successorExpiresAt: successorExpiresAt, now: now, graceSeconds: graceSeconds,
                               withUser: false) { _, _ in }
    }

    /// See `RefreshTokenStore.rotateRefreshToken(tokenHash:grantID:clientID:successorHash:successorExpiresAt:now:graceSeconds:withUser:check:)`.
    ///
    /// One transaction that reads the presented token with its grant (and its user's disabled
    /// flag) in one statement, locking both (SQLite: the write lock from `BEGIN IMMEDIATE`;
    /// PostgreSQL: `FOR UPDATE`, the token row before the grant row), so the state read is the
    /// state written against: a racing rotation of the same token waits, then sees it rotated (a
    /// grace retry or reuse). `check` runs on those rows before anything is decided; a throw
    /// rolls the transaction back. `RefreshRotation.decide` makes the decision; this applies its
    /// write, which nothing reads before the commit (`SQLConnection.write`). On PostgreSQL a plain
    /// rotation is 2 round trips: `BEGIN` with this read, then the `UPDATE`, the `INSERT` and
    /// `COMMIT` in one pipeline. The token is read by `tokenWhere`; the successor, the update and
    /// the insert all go to the presented token's family (`grant_ref`), so on SQLite a rotation
    /// writes one leaf of `refresh_tokens` (the family's tokens sit together in its primary key).
    /// With `withUser` the same read returns the user's row (`Rotation.user`): a refresh that
    /// issues an ID token makes no read transaction (on PostgreSQL, no round trip) of its own.
    public func rotateRefreshToken(tokenHash: [UInt8], grantID: String?, clientID: String, successorHash: [UInt8],
                                   successorExpiresAt: Date, now: Date, graceSeconds: Int, withUser: Bool,
                                   check: (RefreshTokenRecord, GrantRecord) throws -> Void) throws -> RotationResult {
        let request = RotationRequest(tokenHash: tokenHash, clientID: clientID, successorHash: successorHash,
                                      successorExpiresAt: successorExpiresAt, now: now, graceSeconds: graceSeconds)
        return try database.transaction { db in
            let read = try db.one(Self.rotationRead(located: grantID != nil, withUser: withUser),
                                  Self.tokenKey(tokenHash, grantID)) { row in
                (try Self.decodeToken(row), try Self.decodeGrant(row, first: 8), try row.optionalBool(21) ?? false,
                 try row.int64(22), withUser && row.optionalText(23) != nil ? try SQLUserStore.decodeUser(row, first: 23) : nil)
            }
            guard let (token, grant, userDisabled, grantKey, user) = read else {
                return RefreshRotation.decide(request, token: nil, grant: nil, userDisabled: false, successor: nil).0
            }
            if grant.clientID == clientID { try check(token, grant) }
            let successor = try RefreshRotation.successorToRead(token, request).flatMap { hash in
                try db.one(Self.tokenInFamily, [grantKey, hash], Self.decodeToken)
            }
            let (decided, write) = RefreshRotation.decide(request, token: token, grant: grant,
                                                          userDisabled: userDisabled, successor: successor)
            let result = user.map(decided.carrying(user:)) ?? decided
            switch write {
            case .none:
                break
            case .revokeGrant(let id, let reason, let at):
                try db.write(Self.revokeByID, [at, reason, id])
            case .rotate(let presentedHash, let at, let next):
                try db.write(Self.markRotated, [at, next.tokenHash, grantKey, presentedHash], changing: 1,
                             else: .backend("refresh token changed under its lock"))
                try db.write(Self.insertSuccessorSQL, Self.successorBinds(next, grantKey: grantKey, grantScope: grant.scope))
            }
            return result
        }
    }

    /// See `RefreshTokenStore.revokeGrant(id:reason:now:)`.
    public func revokeGrant(id: String, reason: String, now: Date) throws -> Bool {
        try database.write { db in try db.run(Self.revokeByID, [now, reason, id]) == 1 }
    }

    /// See `RefreshTokenStore.revokeGrant(issuedFrom:reason:now:)`.
    public func revokeGrant(issuedFrom code: AuthorizationCodeRecord, reason: String, now: Date) throws {
        try database.transaction { db in
            let profile = GrantProfile(clientID: code.clientID, scope: code.scope, resources: "[]", amr: "")
            try db.write(Self.insertProfileSQL, profile.binds)
            try db.write(Self.revokeIssuedFrom,
                         [code.grantID, code.userID, now, reason, code.sessionID, code.authTime, profile.key],
                         changing: 1, else: .backend("a code's grant profile is missing"))
        }
    }

    /// See `RefreshTokenStore.activeRefreshGrants(userID:now:)`.
    public func activeRefreshGrants(userID: String, now: Date) throws -> [GrantRecord] {
        try database.read { db in try db.query(Self.activeRefreshByUser, [userID, now], Self.decodeGrant) }
    }

    /// See `RefreshTokenStore.revokeGrants(userID:reason:now:)`.
    public func revokeGrants(userID: String, reason: String, now: Date) throws -> Int {
        try database.write { db in try db.run(Self.revokeByUser, [now, reason, userID]) }
    }

    /// See `RefreshTokenStore.revokeGrants(userID:organizationID:reason:now:)`.
    public func revokeGrants(userID: String, organizationID: String, reason: String, now: Date) throws -> Int {
        try database.write { db in try db.run(Self.revokeByUserAndOrganization, [now, reason, userID, organizationID]) }
    }

    /// See `RefreshTokenStore.revokeGrants(organizationID:reason:now:)`.
    public func revokeGrants(organizationID: String, reason: String, now: Date) throws -> Int {
        try database.write { db in try db.run(Self.revokeByOrganization, [now, reason, organizationID]) }
    }

    /// See `RefreshTokenStore.revokeGrants(sessionID:reason:now:)`.
    public func revokeGrants(sessionID: String, reason: String, now: Date) throws -> Int {
        try database.write { db in try db.run(Self.revokeBySession, [now, reason, sessionID]) }
    }
}
