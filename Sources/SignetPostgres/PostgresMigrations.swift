/// The schema, as numbered migrations. Version N is `all[N - 1]`; append, never edit a shipped one.
///
/// The same tables and columns as `SQLiteMigrations`, spelled for PostgreSQL: times are integer
/// microseconds since 1970 (`BIGINT`), hashes and keys `BYTEA`, string lists JSON text, flags
/// `BOOLEAN`, and the audit sequence an identity column.
enum PostgresMigrations {
    /// Every migration, in order.
    static let all: [String] = [v1, v2]

    /// The highest version this build knows.
    static var latest: Int { all.count }

    static let v1 = """
    CREATE TABLE store_generation (
        name  TEXT PRIMARY KEY,
        value BIGINT NOT NULL
    );
    INSERT INTO store_generation (name, value) VALUES ('clients', 0), ('keys', 0);

    CREATE TABLE signing_keys (
        id                    TEXT PRIMARY KEY,
        algorithm             TEXT NOT NULL,
        encrypted_private_key BYTEA NOT NULL,
        public_jwk            TEXT NOT NULL,
        created_at            BIGINT NOT NULL,
        activates_at          BIGINT NOT NULL,
        retired_at            BIGINT,
        remove_after          BIGINT
    );

    CREATE TABLE clients (
        id                          TEXT PRIMARY KEY,
        name                        TEXT NOT NULL,
        secret_hash                 BYTEA,
        secret_salt                 BYTEA,
        is_public                   BOOLEAN NOT NULL,
        first_party                 BOOLEAN NOT NULL,
        redirect_uris               TEXT NOT NULL,
        post_logout_redirect_uris   TEXT NOT NULL,
        allowed_scopes              TEXT NOT NULL,
        grant_types                 TEXT NOT NULL,
        token_endpoint_auth_method  TEXT NOT NULL,
        id_token_algorithm          TEXT NOT NULL,
        access_token_lifetime       BIGINT,
        refresh_token_lifetime      BIGINT,
        id_token_lifetime           BIGINT,
        allow_headless              BOOLEAN NOT NULL,
        created_at                  BIGINT NOT NULL,
        updated_at                  BIGINT NOT NULL,
        extra                       TEXT NOT NULL
    );

    CREATE TABLE users (
        id             TEXT PRIMARY KEY,
        email          TEXT NOT NULL UNIQUE,
        email_verified BOOLEAN NOT NULL,
        password_hash  TEXT,
        name           TEXT,
        given_name     TEXT,
        family_name    TEXT,
        disabled_at    BIGINT,
        created_at     BIGINT NOT NULL,
        updated_at     BIGINT NOT NULL
    );

    CREATE TABLE federated_identities (
        connection_id TEXT NOT NULL,
        issuer        TEXT NOT NULL,
        subject       TEXT NOT NULL,
        user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email         TEXT,
        created_at    BIGINT NOT NULL,
        PRIMARY KEY (connection_id, issuer, subject)
    );
    CREATE INDEX federated_identities_user ON federated_identities (user_id);

    CREATE TABLE authorization_requests (
        id_hash     BYTEA PRIMARY KEY,
        client_id   TEXT NOT NULL,
        payload     TEXT NOT NULL,
        created_at  BIGINT NOT NULL,
        expires_at  BIGINT NOT NULL,
        consumed_at BIGINT
    );
    CREATE INDEX authorization_requests_expires ON authorization_requests (expires_at);

    CREATE TABLE authorization_codes (
        code_hash      BYTEA PRIMARY KEY,
        client_id      TEXT NOT NULL,
        user_id        TEXT NOT NULL,
        redirect_uri   TEXT NOT NULL,
        scope          TEXT NOT NULL,
        code_challenge TEXT,
        nonce          TEXT,
        resource       TEXT,
        auth_time      BIGINT NOT NULL,
        session_id     TEXT,
        grant_id       TEXT NOT NULL,
        payload        TEXT NOT NULL,
        created_at     BIGINT NOT NULL,
        expires_at     BIGINT NOT NULL,
        consumed_at    BIGINT
    );
    CREATE INDEX authorization_codes_expires ON authorization_codes (expires_at);

    CREATE TABLE grants (
        grant_id            TEXT PRIMARY KEY,
        client_id           TEXT NOT NULL,
        user_id             TEXT NOT NULL,
        scope               TEXT NOT NULL,
        created_at          BIGINT NOT NULL,
        absolute_expires_at BIGINT NOT NULL,
        revoked_at          BIGINT,
        revoke_reason       TEXT,
        session_id          TEXT,
        auth_time           BIGINT NOT NULL,
        payload             TEXT NOT NULL
    );
    CREATE INDEX grants_user ON grants (user_id);
    CREATE INDEX grants_session ON grants (session_id);
    CREATE INDEX grants_expires ON grants (absolute_expires_at);

    CREATE TABLE refresh_tokens (
        token_hash     BYTEA PRIMARY KEY,
        grant_id       TEXT NOT NULL REFERENCES grants (grant_id) ON DELETE CASCADE,
        parent_hash    BYTEA,
        scope          TEXT NOT NULL,
        created_at     BIGINT NOT NULL,
        expires_at     BIGINT NOT NULL,
        rotated_at     BIGINT,
        successor_hash BYTEA
    );
    CREATE INDEX refresh_tokens_grant ON refresh_tokens (grant_id);

    CREATE TABLE sessions (
        id_hash             BYTEA PRIMARY KEY,
        user_id             TEXT NOT NULL,
        created_at          BIGINT NOT NULL,
        last_seen_at        BIGINT NOT NULL,
        idle_expires_at     BIGINT NOT NULL,
        absolute_expires_at BIGINT NOT NULL,
        auth_time           BIGINT NOT NULL,
        amr                 TEXT NOT NULL,
        ended_at            BIGINT
    );
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE INDEX sessions_expires ON sessions (absolute_expires_at);

    CREATE TABLE consents (
        user_id    TEXT NOT NULL,
        client_id  TEXT NOT NULL,
        scopes     TEXT NOT NULL,
        granted_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, client_id)
    );

    CREATE TABLE nonces (
        nonce_hash  BYTEA PRIMARY KEY,
        client_id   TEXT NOT NULL,
        created_at  BIGINT NOT NULL,
        expires_at  BIGINT NOT NULL,
        consumed_at BIGINT
    );
    CREATE INDEX nonces_expires ON nonces (expires_at);

    CREATE TABLE audit_log (
        sequence   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event      TEXT NOT NULL,
        subject_id TEXT,
        client_id  TEXT,
        detail     TEXT NOT NULL,
        at         BIGINT NOT NULL
    );

    CREATE TABLE throttle_hits (
        key TEXT NOT NULL,
        at  BIGINT NOT NULL
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
