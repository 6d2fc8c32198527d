/// The schema, as numbered migrations. Version N is `all[N - 1]`; append, never edit a shipped one.
///
/// Portable SQL on purpose (a PostgreSQL store mirrors it): times are integer microseconds since
/// 1970 (`bigint`), hashes and keys are `BLOB` (`bytea`), string lists are JSON text (`jsonb`
/// would do), booleans are 0/1 (`boolean`). The only SQLite-specific spelling is
/// `INTEGER PRIMARY KEY AUTOINCREMENT` (`bigint GENERATED ALWAYS AS IDENTITY`).
enum SQLiteMigrations {
    /// Every migration, in order.
    static let all: [String] = [v1, v2]

    /// The highest version this build knows.
    static var latest: Int { all.count }

    static let v1 = """
    CREATE TABLE store_generation (
        name  TEXT PRIMARY KEY,
        value INTEGER NOT NULL
    );
    INSERT INTO store_generation (name, value) VALUES ('clients', 0), ('keys', 0);

    CREATE TABLE signing_keys (
        id                    TEXT PRIMARY KEY,
        algorithm             TEXT NOT NULL,
        encrypted_private_key BLOB NOT NULL,
        public_jwk            TEXT NOT NULL,
        created_at            INTEGER NOT NULL,
        activates_at          INTEGER NOT NULL,
        retired_at            INTEGER,
        remove_after          INTEGER
    );

    CREATE TABLE clients (
        id                          TEXT PRIMARY KEY,
        name                        TEXT NOT NULL,
        secret_hash                 BLOB,
        secret_salt                 BLOB,
        is_public                   INTEGER NOT NULL,
        first_party                 INTEGER NOT NULL,
        redirect_uris               TEXT NOT NULL,
        post_logout_redirect_uris   TEXT NOT NULL,
        allowed_scopes              TEXT NOT NULL,
        grant_types                 TEXT NOT NULL,
        token_endpoint_auth_method  TEXT NOT NULL,
        id_token_algorithm          TEXT NOT NULL,
        access_token_lifetime       INTEGER,
        refresh_token_lifetime      INTEGER,
        id_token_lifetime           INTEGER,
        allow_headless              INTEGER NOT NULL,
        created_at                  INTEGER NOT NULL,
        updated_at                  INTEGER NOT NULL,
        extra                       TEXT NOT NULL
    );

    CREATE TABLE users (
        id             TEXT PRIMARY KEY,
        email          TEXT NOT NULL UNIQUE,
        email_verified INTEGER NOT NULL,
        password_hash  TEXT,
        name           TEXT,
        given_name     TEXT,
        family_name    TEXT,
        disabled_at    INTEGER,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL
    );

    CREATE TABLE federated_identities (
        connection_id TEXT NOT NULL,
        issuer        TEXT NOT NULL,
        subject       TEXT NOT NULL,
        user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email         TEXT,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (connection_id, issuer, subject)
    );
    CREATE INDEX federated_identities_user ON federated_identities (user_id);

    CREATE TABLE authorization_requests (
        id_hash     BLOB PRIMARY KEY,
        client_id   TEXT NOT NULL,
        payload     TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        consumed_at INTEGER
    );
    CREATE INDEX authorization_requests_expires ON authorization_requests (expires_at);

    CREATE TABLE authorization_codes (
        code_hash      BLOB PRIMARY KEY,
        client_id      TEXT NOT NULL,
        user_id        TEXT NOT NULL,
        redirect_uri   TEXT NOT NULL,
        scope          TEXT NOT NULL,
        code_challenge TEXT,
        nonce          TEXT,
        resource       TEXT,
        auth_time      INTEGER NOT NULL,
        session_id     TEXT,
        grant_id       TEXT NOT NULL,
        payload        TEXT NOT NULL,
        created_at     INTEGER NOT NULL,
        expires_at     INTEGER NOT NULL,
        consumed_at    INTEGER
    );
    CREATE INDEX authorization_codes_expires ON authorization_codes (expires_at);

    CREATE TABLE grants (
        grant_id            TEXT PRIMARY KEY,
        client_id           TEXT NOT NULL,
        user_id             TEXT NOT NULL,
        scope               TEXT NOT NULL,
        created_at          INTEGER NOT NULL,
        absolute_expires_at INTEGER NOT NULL,
        revoked_at          INTEGER,
        revoke_reason       TEXT,
        session_id          TEXT,
        auth_time           INTEGER NOT NULL,
        payload             TEXT NOT NULL
    );
    CREATE INDEX grants_user ON grants (user_id);
    CREATE INDEX grants_session ON grants (session_id);
    CREATE INDEX grants_expires ON grants (absolute_expires_at);

    CREATE TABLE refresh_tokens (
        token_hash     BLOB PRIMARY KEY,
        grant_id       TEXT NOT NULL REFERENCES grants (grant_id) ON DELETE CASCADE,
        parent_hash    BLOB,
        scope          TEXT NOT NULL,
        created_at     INTEGER NOT NULL,
        expires_at     INTEGER NOT NULL,
        rotated_at     INTEGER,
        successor_hash BLOB
    ) WITHOUT ROWID;
    CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_id);

    CREATE TABLE sessions (
        id_hash             BLOB PRIMARY KEY,
        user_id             TEXT NOT NULL,
        created_at          INTEGER NOT NULL,
        last_seen_at        INTEGER NOT NULL,
        idle_expires_at     INTEGER NOT NULL,
        absolute_expires_at INTEGER NOT NULL,
        auth_time           INTEGER NOT NULL,
        amr                 TEXT NOT NULL,
        ended_at            INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE INDEX sessions_expires ON sessions (absolute_expires_at);

    CREATE TABLE consents (
        user_id    TEXT NOT NULL,
        client_id  TEXT NOT NULL,
        scopes     TEXT NOT NULL,
        granted_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, client_id)
    );

    CREATE TABLE nonces (
        nonce_hash  BLOB PRIMARY KEY,
        client_id   TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        consumed_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX nonces_expires ON nonces (expires_at);

    CREATE TABLE audit_log (
        sequence   INTEGER PRIMARY KEY AUTOINCREMENT,
        event      TEXT NOT NULL,
        subject_id TEXT,
        client_id  TEXT,
        detail     TEXT NOT NULL,
        at         INTEGER NOT NULL
    );

    CREATE TABLE throttle_hits (
        key TEXT NOT NULL,
        at  INTEGER NOT NULL
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
}
