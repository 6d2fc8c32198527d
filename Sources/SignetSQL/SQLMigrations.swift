import Foundation
import SignetStore

/// One schema change: version N is the N-th entry of `SQLMigrations.all`.
public struct SQLMigration: Sendable {
    /// The schema version this change brings the database to.
    public let version: Int
    /// The DDL, in the template spelling of `SQLDialect` (column types as `{int}`, `{bytes}`, …).
    public let template: String
    /// Rows to rewrite after the DDL, in the same transaction (the same code on every backend), or nil.
    let backfill: (@Sendable (any SQLConnection) throws -> Void)?

    init(version: Int, template: String, backfill: (@Sendable (any SQLConnection) throws -> Void)? = nil) {
        self.version = version
        self.template = template
        self.backfill = backfill
    }
}

/// The schema, as one numbered list for both backends, each change rendered per dialect
/// (`SQLDialect.render`). Append, never edit a shipped one.
///
/// Times are integer microseconds since 1970 (`{int}`: SQLite `INTEGER`, PostgreSQL `BIGINT`),
/// hashes and keys `{bytes}` (`BLOB` / `BYTEA`), string lists JSON text, flags `{bool}`
/// (0/1 / `BOOLEAN`), the audit sequence `{serial}`, a grant's integer key `{row_key}`.
public enum SQLMigrations {
    /// Every migration, in order.
    public static let all: [SQLMigration] = [
        SQLMigration(version: 1, template: v1),
        SQLMigration(version: 2, template: v2),
        SQLMigration(version: 3, template: v3, backfill: grantAMRFromPayload),
        SQLMigration(version: 4, template: v4),
        SQLMigration(version: 5, template: v5),
        SQLMigration(version: 6, template: v6),
        SQLMigration(version: 7, template: v7),
        SQLMigration(version: 8, template: v8),
        SQLMigration(version: 9, template: v9, backfill: auditChainFromLog),
        SQLMigration(version: 10, template: v10),
        SQLMigration(version: 11, template: v11),
        SQLMigration(version: 12, template: v12),
        SQLMigration(version: 13, template: organizationDomainsTable),
        SQLMigration(version: 14, template: auditActorIndex),
        SQLMigration(version: 15, template: grantOrganization),
        SQLMigration(version: 16, template: grantOrganizationIndex),
        SQLMigration(version: 17, template: tokenScopeFromGrant),
        SQLMigration(version: 18, template: grantRowKey),
        SQLMigration(version: 19, template: tokensUnderGrant),
        SQLMigration(version: 20, template: grantProfiles, backfill: grantProfileKeys),
        SQLMigration(version: 21, template: grantUserPrefix),
        SQLMigration(version: 22, template: consoleSessions),
        SQLMigration(version: 23, template: totpLockout),
    ]

    /// The highest version this build knows.
    public static var latest: Int { all.count }

    /// The bookkeeping table, created before the first migration.
    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    {int} PRIMARY KEY,
            applied_at {int} NOT NULL
        )
        """

    /// Applies every migration newer than the database on `db`, each in its own transaction;
    /// returns the versions applied (empty when the schema is current). Callers that share the
    /// database with other processes serialise around it (PostgreSQL: an advisory lock).
    public static func migrate(_ db: any SQLConnection) throws -> [Int] {
        try migrate(db, through: latest)
    }

    /// `migrate(_:)` up to schema version `last` only: an older build's schema, for tests of the
    /// migrations after it on data written in it.
    public static func migrate(_ db: any SQLConnection, through last: Int) throws -> [Int] {
        // Every start of a current database: one read instead of a transaction per migration.
        if try appliedCount(db, through: last) == last { return [] }
        try db.execute(db.dialect.render(bookkeeping))
        var applied: [Int] = []
        for migration in all.prefix(last) {
            let didApply = try db.transaction { () throws -> Bool in
                let done = try db.one("SELECT 1 FROM schema_migrations WHERE version = $1", [migration.version]) { _ in true }
                if done != nil { return false }
                try db.execute(db.dialect.render(migration.template))
                try migration.backfill?(db)
                // Bookkeeping only, so the wall clock is fine here.
                try db.run("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [migration.version, Date()])
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }

    /// How many of the versions 1 … `last` the database has applied (0 without the bookkeeping table).
    static func appliedCount(_ db: any SQLConnection, through last: Int) throws -> Int {
        guard try db.one(db.dialect.tableExistsQuery, ["schema_migrations"], { _ in true }) != nil else { return 0 }
        return try db.one("SELECT COUNT(*) FROM schema_migrations WHERE version BETWEEN 1 AND $1", [last]) { try $0.int64(0) }
            .map { Int($0) } ?? 0
    }

    /// The highest migration applied to the database (0 for an empty one).
    public static func currentVersion(_ db: any SQLConnection) throws -> Int {
        guard try db.one(db.dialect.tableExistsQuery, ["schema_migrations"], { _ in true }) != nil else { return 0 }
        return try db.one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", []) { try $0.int64(0) }
            .map { Int($0) } ?? 0
    }

    static let v1 = """
    CREATE TABLE store_generation (
        name  TEXT PRIMARY KEY,
        value {int} NOT NULL
    );
    INSERT INTO store_generation (name, value) VALUES ('clients', 0), ('keys', 0);

    CREATE TABLE signing_keys (
        id                    TEXT PRIMARY KEY,
        algorithm             TEXT NOT NULL,
        encrypted_private_key {bytes} NOT NULL,
        public_jwk            TEXT NOT NULL,
        created_at            {int} NOT NULL,
        activates_at          {int} NOT NULL,
        retired_at            {int},
        remove_after          {int}
    );

    CREATE TABLE clients (
        id                          TEXT PRIMARY KEY,
        name                        TEXT NOT NULL,
        secret_hash                 {bytes},
        secret_salt                 {bytes},
        is_public                   {bool} NOT NULL,
        first_party                 {bool} NOT NULL,
        redirect_uris               TEXT NOT NULL,
        post_logout_redirect_uris   TEXT NOT NULL,
        allowed_scopes              TEXT NOT NULL,
        grant_types                 TEXT NOT NULL,
        token_endpoint_auth_method  TEXT NOT NULL,
        id_token_algorithm          TEXT NOT NULL,
        access_token_lifetime       {int},
        refresh_token_lifetime      {int},
        id_token_lifetime           {int},
        allow_headless              {bool} NOT NULL,
        created_at                  {int} NOT NULL,
        updated_at                  {int} NOT NULL,
        extra                       TEXT NOT NULL
    );

    CREATE TABLE users (
        id             TEXT PRIMARY KEY,
        email          TEXT NOT NULL UNIQUE,
        email_verified {bool} NOT NULL,
        password_hash  TEXT,
        name           TEXT,
        given_name     TEXT,
        family_name    TEXT,
        disabled_at    {int},
        created_at     {int} NOT NULL,
        updated_at     {int} NOT NULL
    );

    CREATE TABLE federated_identities (
        connection_id TEXT NOT NULL,
        issuer        TEXT NOT NULL,
        subject       TEXT NOT NULL,
        user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email         TEXT,
        created_at    {int} NOT NULL,
        PRIMARY KEY (connection_id, issuer, subject)
    );
    CREATE INDEX federated_identities_user ON federated_identities (user_id);

    CREATE TABLE authorization_requests (
        id_hash     {bytes} PRIMARY KEY,
        client_id   TEXT NOT NULL,
        payload     TEXT NOT NULL,
        created_at  {int} NOT NULL,
        expires_at  {int} NOT NULL,
        consumed_at {int}
    );
    CREATE INDEX authorization_requests_expires ON authorization_requests (expires_at);

    CREATE TABLE authorization_codes (
        code_hash      {bytes} PRIMARY KEY,
        client_id      TEXT NOT NULL,
        user_id        TEXT NOT NULL,
        redirect_uri   TEXT NOT NULL,
        scope          TEXT NOT NULL,
        code_challenge TEXT,
        nonce          TEXT,
        resource       TEXT,
        auth_time      {int} NOT NULL,
        session_id     TEXT,
        grant_id       TEXT NOT NULL,
        payload        TEXT NOT NULL,
        created_at     {int} NOT NULL,
        expires_at     {int} NOT NULL,
        consumed_at    {int}
    );
    CREATE INDEX authorization_codes_expires ON authorization_codes (expires_at);

    CREATE TABLE grants (
        grant_id            TEXT PRIMARY KEY,
        client_id           TEXT NOT NULL,
        user_id             TEXT NOT NULL,
        scope               TEXT NOT NULL,
        created_at          {int} NOT NULL,
        absolute_expires_at {int} NOT NULL,
        revoked_at          {int},
        revoke_reason       TEXT,
        session_id          TEXT,
        auth_time           {int} NOT NULL,
        payload             TEXT NOT NULL
    );
    CREATE INDEX grants_user ON grants (user_id);
    CREATE INDEX grants_session ON grants (session_id);
    CREATE INDEX grants_expires ON grants (absolute_expires_at);

    CREATE TABLE refresh_tokens (
        token_hash     {bytes} PRIMARY KEY,
        grant_id       TEXT NOT NULL REFERENCES grants (grant_id) ON DELETE CASCADE,
        parent_hash    {bytes},
        scope          TEXT NOT NULL,
        created_at     {int} NOT NULL,
        expires_at     {int} NOT NULL,
        rotated_at     {int},
        successor_hash {bytes}
    ) {without_rowid};
    CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_id);

    CREATE TABLE sessions (
        id_hash             {bytes} PRIMARY KEY,
        user_id             TEXT NOT NULL,
        created_at          {int} NOT NULL,
        last_seen_at        {int} NOT NULL,
        idle_expires_at     {int} NOT NULL,
        absolute_expires_at {int} NOT NULL,
        auth_time           {int} NOT NULL,
        amr                 TEXT NOT NULL,
        ended_at            {int}
    ) {without_rowid};
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE INDEX sessions_expires ON sessions (absolute_expires_at);

    CREATE TABLE consents (
        user_id    TEXT NOT NULL,
        client_id  TEXT NOT NULL,
        scopes     TEXT NOT NULL,
        granted_at {int} NOT NULL,
        PRIMARY KEY (user_id, client_id)
    );

    CREATE TABLE nonces (
        nonce_hash  {bytes} PRIMARY KEY,
        client_id   TEXT NOT NULL,
        created_at  {int} NOT NULL,
        expires_at  {int} NOT NULL,
        consumed_at {int}
    ) {without_rowid};
    CREATE INDEX nonces_expires ON nonces (expires_at);

    CREATE TABLE audit_log (
        sequence   {serial},
        event      TEXT NOT NULL,
        subject_id TEXT,
        client_id  TEXT,
        detail     TEXT NOT NULL,
        at         {int} NOT NULL
    );

    CREATE TABLE throttle_hits (
        key TEXT NOT NULL,
        at  {int} NOT NULL
    );
    CREATE INDEX throttle_hits_key ON throttle_hits (key, at);
    CREATE INDEX throttle_hits_at ON throttle_hits (at);
    """

    /// RFC 8707 resources: what each client may ask for (`clients.allowed_resources`) and what
    /// each grant family was given (`grants.resources`), so a refresh keeps the audience. JSON
    /// arrays of strings; existing rows get none.
    static let v2 = """
    ALTER TABLE clients ADD COLUMN allowed_resources TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE grants ADD COLUMN resources TEXT NOT NULL DEFAULT '[]';
    """

    /// The authentication methods of each grant family as a column of its own (space separated,
    /// like `scope`), so a refresh reads them without parsing the payload's JSON.
    static let v3 = """
    ALTER TABLE grants ADD COLUMN amr TEXT NOT NULL DEFAULT '';
    """

    /// The mail outbox (`SQLMailOutbox`): the message only sealed (`sealed_message`), so nothing
    /// of it (recipient, subject, codes, links) is readable in the database; the due index covers
    /// only pending rows.
    static let v4 = """
    CREATE TABLE mail_outbox (
        id              TEXT PRIMARY KEY,
        sealed_message  {bytes} NOT NULL,
        state           TEXT NOT NULL,
        attempts        {int} NOT NULL,
        created_at      {int} NOT NULL,
        next_attempt_at {int} NOT NULL,
        finished_at     {int}
    );
    CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE state = 'pending';
    CREATE INDEX mail_outbox_finished ON mail_outbox (finished_at) WHERE finished_at IS NOT NULL;
    """

    /// The upstream token kept for a linked identity (today Apple's refresh token), sealed with
    /// AES-256-GCM under the master key's upstream-token subkey, so the account's deletion can
    /// revoke it at the provider (App Store Review Guideline 5.1.1(v)); goes with the link.
    static let v5 = """
    ALTER TABLE federated_identities ADD COLUMN upstream_token {bytes};
    """

    /// Passkeys (`SQLPasskeyStore`): each WebAuthn credential of an account (its id unique across
    /// accounts, the COSE key as registered, the counter, BE/BS, when a counter went backwards)
    /// and the challenges issued for ceremonies, only as keyed hashes, used once.
    static let v6 = """
    CREATE TABLE passkey_credentials (
        credential_id   {bytes} PRIMARY KEY,
        user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        public_key      {bytes} NOT NULL,
        sign_count      {int} NOT NULL,
        backup_eligible {bool} NOT NULL,
        backup_state    {bool} NOT NULL,
        transports      TEXT NOT NULL,
        name            TEXT NOT NULL,
        created_at      {int} NOT NULL,
        last_used_at    {int},
        flagged_at      {int}
    );
    CREATE INDEX passkey_credentials_user ON passkey_credentials (user_id);

    CREATE TABLE passkey_ceremonies (
        challenge_hash {bytes} PRIMARY KEY,
        kind           TEXT NOT NULL,
        user_id        TEXT,
        binding        {bytes} NOT NULL,
        context        TEXT NOT NULL,
        created_at     {int} NOT NULL,
        expires_at     {int} NOT NULL,
        consumed_at    {int}
    );
    CREATE INDEX passkey_ceremonies_expiry ON passkey_ceremonies (expires_at);
    """

    /// Email challenges (`SQLEmailChallengeStore`): sign-up verification, password reset and
    /// email sign-in. Only keyed hashes of the code and the link token are kept; the pending
    /// request to continue is sealed by the server.
    static let v7 = """
    CREATE TABLE email_challenges (
        id             TEXT PRIMARY KEY,
        purpose        TEXT NOT NULL,
        email          TEXT NOT NULL,
        user_id        TEXT,
        code_hash      {bytes} NOT NULL,
        link_hash      {bytes} NOT NULL UNIQUE,
        browser_hash   {bytes},
        sealed_request {bytes},
        attempts       {int} NOT NULL,
        created_at     {int} NOT NULL,
        expires_at     {int} NOT NULL,
        consumed_at    {int}
    );
    CREATE INDEX email_challenges_expires ON email_challenges (expires_at);
    """

    /// Second factors (`SQLSecondFactorStore`): one TOTP factor per user, its secret only sealed
    /// (AES-256-GCM under the master key's TOTP subkey), with the last accepted step so a code is
    /// good once; and the single-use recovery codes, only their keyed hashes. Both go with the user.
    static let v8 = """
    CREATE TABLE totp_factors (
        user_id        TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        sealed_secret  {bytes} NOT NULL,
        created_at     {int} NOT NULL,
        confirmed_at   {int},
        last_used_step {int}
    );
    CREATE TABLE recovery_codes (
        user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash  {bytes} NOT NULL,
        created_at {int} NOT NULL,
        used_at    {int},
        PRIMARY KEY (user_id, code_hash)
    );
    """

    /// Console roles (`SQLOperatorRoleStore`): one per user, gone with the user.
    static let v11 = """
    CREATE TABLE operator_roles (
        user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        role       TEXT NOT NULL,
        updated_at {int} NOT NULL
    )
    """

    /// The hash-chained audit trail (`SQLAuditLog`, `AuditChain`): `audit_events` numbered by the
    /// store (no identity column, so the sequence has no gaps of its own), who, from where and
    /// why, and each event's hash over the one before; `audit_chain`, one row holding the head
    /// (locked by every append) and the checkpoint left by retention. The old `audit_log` rows are
    /// moved over by the backfill.
    static let v9 = """
    CREATE TABLE audit_events (
        sequence   {int} PRIMARY KEY,
        at         {int} NOT NULL,
        event      TEXT NOT NULL,
        actor      TEXT,
        subject_id TEXT,
        client_id  TEXT,
        address    TEXT,
        user_agent TEXT,
        method     TEXT,
        reason     TEXT,
        detail     TEXT NOT NULL,
        prev_hash  {bytes} NOT NULL,
        hash       {bytes} NOT NULL
    );
    CREATE INDEX audit_events_at ON audit_events (at);
    CREATE INDEX audit_events_subject ON audit_events (subject_id);
    CREATE TABLE audit_chain (
        id            {int} PRIMARY KEY,
        head_sequence {int} NOT NULL,
        head_hash     {bytes} NOT NULL,
        base_sequence {int} NOT NULL,
        base_hash     {bytes} NOT NULL
    );
    """

    /// Indexes for the purge's conditions (`SQLStores.purgeBatches`), which the scale benchmark
    /// called for (bench/README.md, "scale"): without them each purge batch scanned every grant
    /// (`revoked_at < $1`) and every session (`idle_expires_at < $1`, `ended_at < $1`), a full
    /// scan of millions of rows per thousand deleted, while the write lock was held. Revoked
    /// grants and ended sessions are few, so those two are partial (only their rows); the idle
    /// expiry is on every session (each touch moves it, so the session touch updates it too).
    static let v10 = """
    CREATE INDEX grants_revoked ON grants (revoked_at) WHERE revoked_at IS NOT NULL;
    CREATE INDEX sessions_idle_expires ON sessions (idle_expires_at);
    CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL;
    """

    /// Organizations (`SQLOrganizationStore`, docs/organizations.md): the organization (slug
    /// unique), its custom role names (`owner`, `admin`, `member` are built in and have no row),
    /// its members with their roles (JSON text; a membership goes with its user), and its
    /// invitations, the link's token only as a keyed hash. All go with the organization.
    static let v12 = """
    CREATE TABLE organizations (
        id         TEXT PRIMARY KEY,
        slug       TEXT NOT NULL UNIQUE,
        name       TEXT NOT NULL,
        logo_url   TEXT,
        created_at {int} NOT NULL,
        updated_at {int} NOT NULL
    );
    CREATE TABLE organization_roles (
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        name            TEXT NOT NULL,
        created_at      {int} NOT NULL,
        PRIMARY KEY (organization_id, name)
    );
    CREATE TABLE organization_members (
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        roles           TEXT NOT NULL,
        created_at      {int} NOT NULL,
        PRIMARY KEY (organization_id, user_id)
    );
    CREATE INDEX organization_members_user ON organization_members (user_id);
    CREATE TABLE organization_invitations (
        id              TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        email           TEXT NOT NULL,
        role            TEXT NOT NULL,
        token_hash      {bytes} NOT NULL UNIQUE,
        created_at      {int} NOT NULL,
        expires_at      {int} NOT NULL,
        accepted_at     {int},
        revoked_at      {int},
        invited_by      TEXT,
        accepted_by     TEXT
    );
    CREATE INDEX organization_invitations_org ON organization_invitations (organization_id);
    """

    /// Organizations' email-domain claims (`SQLOrganizationDomainStore`): the normalized domain
    /// is the key, so a domain is claimed once; the TXT token (public, it is published in DNS),
    /// how and when it was proven, and the connection and policy it is bound to.
    static let organizationDomainsTable = """
    CREATE TABLE organization_domains (
        domain             TEXT PRIMARY KEY,
        organization_id    TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        verification_token TEXT NOT NULL,
        verified_at        {int},
        verified_by        TEXT,
        connection_id      TEXT,
        policy             TEXT NOT NULL,
        created_at         {int} NOT NULL
    );
    CREATE INDEX organization_domains_organization ON organization_domains (organization_id);
    """

    /// The audit trail by actor (the console's filter, `GET /admin/v1/audit?actor=`): measured on
    /// 500,000 events with SQLite, a page for an actor of 1 event in 10,000 took 0.54 s as a scan
    /// and 0.001 s through this index (docs/operations.md, "The audit trail").
    static let auditActorIndex = """
    CREATE INDEX audit_events_actor ON audit_events (actor, sequence)
    """

    /// The organization an authorization chose (scope `organization`, docs/organizations.md): kept
    /// with the code and its grant family as the scope is, so every refresh reads it without
    /// parsing the payload. NULL: no organization. Not a foreign key: a deleted organization
    /// leaves the id, and the next refresh finds no membership and ends the family.
    static let grantOrganization = """
    ALTER TABLE authorization_codes ADD COLUMN organization_id TEXT;
    ALTER TABLE grants ADD COLUMN organization_id TEXT;
    """

    /// The families of an organization, found at once when it is deleted
    /// (`SQLRefreshTokenStore.revokeByOrganization`) instead of by a scan of every grant. Partial:
    /// only grants made with scope `organization` have a row.
    static let grantOrganizationIndex = """
    CREATE INDEX grants_organization ON grants (organization_id) WHERE organization_id IS NOT NULL
    """

    /// A refresh token's scope only where it differs from its family's (NULL: the grant's
    /// `scope`). A token's scope is its family's: the first token takes the grant's and every
    /// successor its predecessor's (RFC 6749 §6; a refresh that asks for less narrows only that
    /// access token), so the column repeated the grant's 35 or so bytes in every row: 42 of the
    /// 490 bytes a family took on SQLite (bench/README.md, "Session 10 (store)"). A token stored
    /// with a scope of its own keeps it. `refresh_tokens` is rebuilt (neither dialect relaxes
    /// NOT NULL the same way, and a copy leaves no dead rows on PostgreSQL): the new table is
    /// filled in key order, the old one and its index dropped, the new one renamed. Each token has
    /// its grant (`ON DELETE CASCADE` under enforced foreign keys on both backends), so the join
    /// loses no row. Its one index is the same: `refresh_tokens_grant` finds a family's tokens for
    /// the cascade from `grants` (purge, account deletion) and for `activeRefreshGrants`.
    static let tokenScopeFromGrant = """
    CREATE TABLE refresh_tokens_v17 (
        token_hash     {bytes} PRIMARY KEY,
        grant_id       TEXT NOT NULL REFERENCES grants (grant_id) ON DELETE CASCADE,
        parent_hash    {bytes},
        scope          TEXT,
        created_at     {int} NOT NULL,
        expires_at     {int} NOT NULL,
        rotated_at     {int},
        successor_hash {bytes}
    ) {without_rowid};
    INSERT INTO refresh_tokens_v17 (token_hash, grant_id, parent_hash, scope, created_at, expires_at, rotated_at, successor_hash)
    SELECT t.token_hash, t.grant_id, t.parent_hash, CASE WHEN t.scope = g.scope THEN NULL ELSE t.scope END,
           t.created_at, t.expires_at, t.rotated_at, t.successor_hash
    FROM refresh_tokens t JOIN grants g ON g.grant_id = t.grant_id
    ORDER BY t.token_hash;
    DROP TABLE refresh_tokens;
    ALTER TABLE refresh_tokens_v17 RENAME TO refresh_tokens;
    CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_id);
    """

    /// Refresh tokens reference their grant by an integer key (`grants.id`, the database's own:
    /// SQLite's rowid, a PostgreSQL identity) instead of repeating its 22-character text id;
    /// `grant_id` stays the public handle (APIs, audit, access tokens), unique. And a grant's
    /// `payload` is `{}`: its copy of the code's `amr` has had nothing reading it since migration 3
    /// (the `amr` column). On SQLite this is 52 of the 448 bytes a family took (bench/README.md,
    /// "Session 11 (bytes)"): the key costs nothing there (a rowid table has it anyway), and each
    /// token row and its `refresh_tokens_grant` entry hold 3 bytes instead of 23. On PostgreSQL
    /// the key is a column and a primary-key index of its own, about what it saves on the token
    /// side; both tables are rebuilt with their fixed-width columns first (no alignment padding
    /// between text and integer columns), which is most of what PostgreSQL gains. Both tables are
    /// copied in key order (grants by `grant_id`, so the ids follow it; tokens joined to their
    /// new grant row by `grant_id`), the old ones dropped (tokens first: they reference the old
    /// grants), the new ones renamed (SQLite rewrites the reference to the renamed table) and
    /// every index made again, the same ones (each has its query, docs/architecture.md) but one:
    /// `grants_session` holds the first 11 characters of the session id instead of all of it (a
    /// session's public id is its keyed hash in base64url, 43 characters: 66 random bits are
    /// plenty to find an ended session's families, and `revokeBySession` compares the whole id on
    /// the rows found), and only for the grants that have a session (token exchange and native
    /// sign-in make families without one).
    static let grantRowKey = """
    CREATE TABLE grants_v18 (
        id                  {row_key},
        created_at          {int} NOT NULL,
        absolute_expires_at {int} NOT NULL,
        auth_time           {int} NOT NULL,
        revoked_at          {int},
        grant_id            TEXT NOT NULL UNIQUE,
        client_id           TEXT NOT NULL,
        user_id             TEXT NOT NULL,
        scope               TEXT NOT NULL,
        revoke_reason       TEXT,
        session_id          TEXT,
        payload             TEXT NOT NULL,
        resources           TEXT NOT NULL DEFAULT '[]',
        amr                 TEXT NOT NULL DEFAULT '',
        organization_id     TEXT
    );
    INSERT INTO grants_v18 (created_at, absolute_expires_at, auth_time, revoked_at, grant_id, client_id, user_id, scope,
                            revoke_reason, session_id, payload, resources, amr, organization_id)
    SELECT created_at, absolute_expires_at, auth_time, revoked_at, grant_id, client_id, user_id, scope,
           revoke_reason, session_id, '{}', resources, amr, organization_id
    FROM grants ORDER BY grant_id;
    CREATE TABLE refresh_tokens_v18 (
        token_hash     {bytes} PRIMARY KEY,
        grant_ref      {int} NOT NULL REFERENCES grants_v18 (id) ON DELETE CASCADE,
        created_at     {int} NOT NULL,
        expires_at     {int} NOT NULL,
        rotated_at     {int},
        parent_hash    {bytes},
        scope          TEXT,
        successor_hash {bytes}
    ) {without_rowid};
    INSERT INTO refresh_tokens_v18 (token_hash, grant_ref, created_at, expires_at, rotated_at, parent_hash, scope, successor_hash)
    SELECT t.token_hash, g.id, t.created_at, t.expires_at, t.rotated_at, t.parent_hash, t.scope, t.successor_hash
    FROM refresh_tokens t JOIN grants_v18 g ON g.grant_id = t.grant_id
    ORDER BY t.token_hash;
    \(replacingGrantTables(with: "v18"))
    CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_ref);
    """

    /// A family's refresh tokens sit together under their grant: `refresh_tokens`' primary key is
    /// (`grant_ref`, `token_hash`) instead of `token_hash`, and `refresh_tokens_grant` goes (the
    /// key's prefix serves the cascade from `grants` and `activeRefreshGrants`). A token's hash is
    /// random, so under the old key a rotation wrote three leaves far apart in the file (the
    /// presented token's, its successor's and the grant index's): at 10 million live tokens on
    /// SQLite its p99 was 3.37 times the empty database's (bench/README.md, "Session 11"). Now the
    /// successor goes next to the presented token, one leaf. For that a token is found under its
    /// family: a refresh token issued from now on names it, `sgr_` + 43 characters + the family's
    /// public grant id (`OpaqueTokens.refreshLocator`), and is read by (grant id → `grants.id`,
    /// `token_hash`); its stored hash is still the keyed hash of the whole string. Tokens issued
    /// before this migration (47 characters, no grant id) must keep working after the upgrade:
    /// every row copied here has `legacy` = 1 (new rows leave it NULL), and the partial index
    /// `refresh_tokens_legacy` finds those rows by their hash alone (`WHERE legacy = 1`: it holds
    /// only them, so it empties as they are rotated away and purged). The table is rebuilt on both
    /// backends (a primary key cannot be changed in place on SQLite), copied in the new key order,
    /// with its fixed-width columns first for PostgreSQL's alignment as in migration 18.
    static let tokensUnderGrant = """
    \(refreshTokensUnderGrant("refresh_tokens_v19", referencing: "grants"))
    SELECT grant_ref, created_at, expires_at, rotated_at, 1, token_hash, parent_hash, scope, successor_hash
    FROM refresh_tokens ORDER BY grant_ref, token_hash;
    DROP TABLE refresh_tokens;
    ALTER TABLE refresh_tokens_v19 RENAME TO refresh_tokens;
    CREATE INDEX refresh_tokens_legacy ON refresh_tokens (token_hash) WHERE legacy = 1;
    """

    /// What a grant family shares with most others moves into `grant_profiles`, one row per
    /// distinct (`client_id`, `scope`, `resources`, `amr`), and each grant holds that row's integer
    /// key (`profile_ref`) instead of repeating the text; the dead `payload` (`{}` in every row since
    /// migration 18) goes. A deployment has a handful of clients, each with a few scopes and sign-in
    /// methods, so millions of families share a few profiles: on SQLite about 50 of the 430 bytes a
    /// live token took (bench/README.md, "Session 13 (bytes)"). A profile is never changed or
    /// deleted (purge and account deletion leave it: there are few, and deleting one would need an
    /// index of `grants.profile_ref` to find whether anything uses it, about 10 bytes per family),
    /// so `profile_ref` needs no foreign key (on PostgreSQL one would lock the shared profile row
    /// at every sign-in), and the server may read a profile by its key under no lock. Its one index
    /// is UNIQUE over `key_hash`, the digest of the four values (`GrantProfile.key`, filled in by
    /// this migration's backfill, which makes the index last), which makes finding or adding a
    /// profile race-safe (`INSERT … ON CONFLICT DO NOTHING`, then read); over the four columns
    /// themselves a long scope or resource list would exceed PostgreSQL's B-tree entry limit.
    /// `organization_id` stays in `grants`: NULL for most families (a byte on SQLite,
    /// nothing on PostgreSQL), and `grants_organization` finds an organization's families without
    /// an index of `profile_ref`. Both tables are rebuilt as in migration 18 (grants copied in
    /// `grant_id` order and keyed anew, fixed-width columns first; tokens joined to their new grant
    /// row through the old one's `grant_id`, copied in key order, `legacy` kept), the old ones
    /// dropped (tokens first), the new ones renamed, and every index made again, the same ones.
    static let grantProfiles = """
    CREATE TABLE grant_profiles (
        id        {row_key},
        key_hash  {bytes},
        client_id TEXT NOT NULL,
        scope     TEXT NOT NULL,
        resources TEXT NOT NULL,
        amr       TEXT NOT NULL
    );
    INSERT INTO grant_profiles (client_id, scope, resources, amr)
    SELECT DISTINCT client_id, scope, resources, amr FROM grants ORDER BY client_id, scope, resources, amr;
    CREATE TABLE grants_v20 (
        id                  {row_key},
        created_at          {int} NOT NULL,
        absolute_expires_at {int} NOT NULL,
        auth_time           {int} NOT NULL,
        profile_ref         {int} NOT NULL,
        revoked_at          {int},
        grant_id            TEXT NOT NULL UNIQUE,
        user_id             TEXT NOT NULL,
        revoke_reason       TEXT,
        session_id          TEXT,
        organization_id     TEXT
    );
    INSERT INTO grants_v20 (created_at, absolute_expires_at, auth_time, profile_ref, revoked_at, grant_id, user_id,
                            revoke_reason, session_id, organization_id)
    SELECT g.created_at, g.absolute_expires_at, g.auth_time, p.id, g.revoked_at, g.grant_id, g.user_id,
           g.revoke_reason, g.session_id, g.organization_id
    FROM grants g JOIN grant_profiles p
      ON p.client_id = g.client_id AND p.scope = g.scope AND p.resources = g.resources AND p.amr = g.amr
    ORDER BY g.grant_id;
    \(refreshTokensUnderGrant("refresh_tokens_v20", referencing: "grants_v20"))
    SELECT n.id, t.created_at, t.expires_at, t.rotated_at, t.legacy, t.token_hash, t.parent_hash, t.scope, t.successor_hash
    FROM refresh_tokens t JOIN grants g ON g.id = t.grant_ref JOIN grants_v20 n ON n.grant_id = g.grant_id
    ORDER BY n.id, t.token_hash;
    \(replacingGrantTables(with: "v20"))
    CREATE INDEX refresh_tokens_legacy ON refresh_tokens (token_hash) WHERE legacy = 1;
    """

    /// `grants_user` holds the first 11 characters of the user id instead of all 22, as
    /// `grants_session` does for the session id (migration 18): a user id is 16 random bytes in
    /// base64url (`UserService`, `FederatedAccountResolver`), so 66 bits find a user's families,
    /// and every statement that uses the index compares the whole id on the rows the prefix finds
    /// (`SQLRefreshTokenStore.byUser`). On SQLite the index held the 22-character id and the rowid
    /// for every family: 33.0 of the 403.8 bytes a live token took at 10 million tokens
    /// (bench/README.md, "Figures measured (session 17)"); on PostgreSQL, whose B-tree stores a
    /// user's families under one key (deduplication), it was about 12 of 577.
    /// The TOTP lock (NIST SP 800-63B §5.2.2): wrong codes in a row, and when they locked the factor.
    static let totpLockout = """
    ALTER TABLE totp_factors ADD COLUMN failed_attempts {int} NOT NULL DEFAULT 0;
    ALTER TABLE totp_factors ADD COLUMN locked_at {int};
    """

    static let grantUserPrefix = """
    DROP INDEX grants_user;
    CREATE INDEX grants_user ON grants (substr(user_id, 1, 11));
    """

    /// Console sessions (`SQLConsoleSessionStore`): the console's cookie holds an opaque handle,
    /// stored only as its keyed hash, with the operator, the sign-in's grant (revoking it ends the
    /// session), its admin scopes and the hash of the browser-binding cookie it must come with;
    /// gone with the user, purged once expired (`console_sessions_expires`).
    static let consoleSessions = """
    CREATE TABLE console_sessions (
        id_hash      {bytes} PRIMARY KEY,
        user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        grant_id     TEXT NOT NULL,
        scope        TEXT NOT NULL,
        binding_hash {bytes} NOT NULL,
        created_at   {int} NOT NULL,
        expires_at   {int} NOT NULL
    );
    CREATE INDEX console_sessions_expires ON console_sessions (expires_at);
    """

    /// The end of a rebuild of `grants` and `refresh_tokens` (migrations 18 and 20): the old tables
    /// dropped (tokens first: they reference the old grants), the new ones (`grants_` and
    /// `refresh_tokens_` + `suffix`) renamed (SQLite rewrites the tokens' reference to the renamed
    /// table), and `grants`' indexes made again, as migration 18 made them.
    static func replacingGrantTables(with suffix: String) -> String {
        """
        DROP TABLE refresh_tokens;
        DROP TABLE grants;
        ALTER TABLE grants_\(suffix) RENAME TO grants;
        ALTER TABLE refresh_tokens_\(suffix) RENAME TO refresh_tokens;
        CREATE INDEX grants_user ON grants (user_id);
        CREATE INDEX grants_session ON grants (substr(session_id, 1, 11)) WHERE session_id IS NOT NULL;
        CREATE INDEX grants_expires ON grants (absolute_expires_at);
        CREATE INDEX grants_revoked ON grants (revoked_at) WHERE revoked_at IS NOT NULL;
        CREATE INDEX grants_organization ON grants (organization_id) WHERE organization_id IS NOT NULL;
        """
    }

    /// The `refresh_tokens` table as migration 19 made it, named `name`, its tokens referencing
    /// `grants` (`id`), and the head of the `INSERT` that fills it (migrations 19 and 20 rebuild it).
    static func refreshTokensUnderGrant(_ name: String, referencing grants: String) -> String {
        """
        CREATE TABLE \(name) (
            grant_ref      {int} NOT NULL REFERENCES \(grants) (id) ON DELETE CASCADE,
            created_at     {int} NOT NULL,
            expires_at     {int} NOT NULL,
            rotated_at     {int},
            legacy         {int},
            token_hash     {bytes} NOT NULL,
            parent_hash    {bytes},
            scope          TEXT,
            successor_hash {bytes},
            PRIMARY KEY (grant_ref, token_hash)
        ) {without_rowid};
        INSERT INTO \(name) (grant_ref, created_at, expires_at, rotated_at, legacy, token_hash, parent_hash, scope,
                                        successor_hash)
        """
    }

    /// Migration 20's backfill: each profile's `key_hash` (`GrantProfile.key` of its stored values),
    /// then the UNIQUE index over it.
    @Sendable static func grantProfileKeys(_ db: any SQLConnection) throws {
        let profiles = try db.query("SELECT id, client_id, scope, resources, amr FROM grant_profiles", []) { row in
            (try row.int64(0), GrantProfile(clientID: try row.text(1), scope: try row.text(2), resources: try row.text(3),
                                            amr: try row.text(4)))
        }
        for (id, profile) in profiles {
            try db.run("UPDATE grant_profiles SET key_hash = $1 WHERE id = $2", [profile.key, id])
        }
        try db.execute("CREATE UNIQUE INDEX grant_profiles_key ON grant_profiles (key_hash)")
    }

    /// Migration 9's backfill: the chain row from the genesis value, then every `audit_log` row,
    /// oldest first, appended as a chained event (renumbered 1, 2, …); then `audit_log` goes.
    @Sendable static func auditChainFromLog(_ db: any SQLConnection) throws {
        try db.run("INSERT INTO audit_chain (id, head_sequence, head_hash, base_sequence, base_hash) VALUES (1, 0, $1, 0, $1)",
                   [AuditChain.genesis])
        let old = try db.query("SELECT event, subject_id, client_id, detail, at FROM audit_log ORDER BY sequence", []) { row in
            AuditEvent(event: try row.text(0), subjectID: row.optionalText(1), clientID: row.optionalText(2),
                       detail: try row.text(3), at: try row.date(4))
        }
        for event in old { _ = try SQLAuditLog.append(event, on: db) }
        try db.execute("DROP TABLE audit_log")
    }

    /// Migration 3's backfill: `amr` from the `{"amr": [...]}` the grant's payload has carried so
    /// far (a payload without it, or not JSON, leaves it empty, as a refresh read it before).
    @Sendable static func grantAMRFromPayload(_ db: any SQLConnection) throws {
        struct Payload: Decodable { var amr: [String]? }
        let grants = try db.query("SELECT grant_id, payload FROM grants", []) { row in
            (try row.text(0), try row.text(1))
        }
        for (id, payload) in grants {
            let amr = (try? JSONDecoder().decode(Payload.self, from: Data(payload.utf8)))?.amr ?? []
            if !amr.isEmpty {
                try db.run("UPDATE grants SET amr = $1 WHERE grant_id = $2", [amr.joined(separator: " "), id])
            }
        }
    }
}
