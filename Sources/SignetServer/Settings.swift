/// Every setting of `signet.json`, with its default. This file is the configuration reference.
public enum Settings {
    // MARK: top level
    /// The issuer identifier.
    public static let issuer = Setting("issuer", "http://127.0.0.1:8080", type: "URL",
        "The issuer identifier: the exact `iss` in every token and the base of every endpoint URL. https, or http on a loopback address for local use; no query or fragment.")
    /// Listen addresses.
    public static let listen = Setting("listen", ["127.0.0.1:8080"], type: "array of HOST:PORT",
        "Addresses to accept connections on, such as \"127.0.0.1:8080\", \"[::1]:8080\" or \"0.0.0.0:443\". Port 0 picks a free port.")
    /// The data folder.
    public static let dataDirectory = Setting("data_dir", "./signet-data", type: "path",
        "The folder for the SQLite database and the generated master key. Relative paths in other settings are resolved against it. PostgreSQL nodes keep nothing in it.")
    /// The master key reference.
    public static let masterKey = Setting("master_key", "file:master.key", type: "secret reference",
        "The 32-byte key (hex or base64, or 32 raw bytes) that encrypts signing keys at rest and keys the token hashes: \"env:NAME\" or \"file:PATH\". The embedded default creates the file with mode 0600 when it is missing. With PostgreSQL it must be set explicitly, is never generated, and every node needs the same key.")
    /// Top-level keys, for the reference.
    static let topLevel: [SettingEntry] = [issuer.entry, listen.entry, dataDirectory.entry, masterKey.entry]

    // MARK: database
    /// Database driver.
    public static let databaseDriver = Setting("driver", "sqlite", type: "\"sqlite\" | \"postgres\"",
        "The storage backend. The embedded default is SQLite in WAL mode, for one node; PostgreSQL lets several stateless nodes share one database.")
    /// SQLite file.
    public static let databasePath = Setting("path", "signet.db", type: "path",
        "SQLite only: the database file, relative to data_dir.")
    /// PostgreSQL connection string.
    public static let databaseURL = Setting<String?>("url", nil, type: "secret reference",
        "PostgreSQL only, and required there: \"env:NAME\" or \"file:PATH\" holding a libpq connection string (`host=… dbname=… user=…`) or a `postgresql://` URL, which may include a password.")
    /// PostgreSQL pool size.
    public static let databaseMaxConnections = Setting("max_connections", 16, type: "integer",
        "PostgreSQL only: the most connections one node opens at once; requests beyond that wait for a free one.")
    /// PostgreSQL statement and lock timeout.
    public static let databaseStatementTimeout = Setting("statement_timeout", 10, type: "seconds",
        "PostgreSQL only: the longest one SQL statement may run or wait for a lock (statement_timeout and lock_timeout on every connection); past it the statement is cancelled, its transaction rolled back, and the request fails with a server error. A transaction left idle six times this long is ended by the server.")
    static let database: [SettingEntry] = [databaseDriver.entry, databasePath.entry, databaseURL.entry,
                                           databaseMaxConnections.entry, databaseStatementTimeout.entry]

    // MARK: http
    /// Body limit.
    public static let maxBodyBytes = Setting("max_body_bytes", 1_048_576, type: "integer",
        "Largest request body accepted; larger bodies are refused with 413 before they are read.")
    /// Header limit.
    public static let maxHeaderBytes = Setting("max_header_bytes", 16_384, type: "integer",
        "Largest request head (request line and headers) accepted.")
    /// Connection limit.
    public static let connectionLimit = Setting("connection_limit", 1024, type: "integer",
        "Most simultaneous connections per listen address.")
    /// Per-address connection limit.
    public static let perAddressConnectionLimit = Setting("per_address_connection_limit", 64, type: "integer",
        "Most simultaneous connections from one peer address per listen address (libmicrohttpd's per-IP limit); more are refused at accept. 0 turns it off. It counts the TCP peer, so behind a reverse proxy it counts the proxy: set it above the proxy's connection pool, or to 0.")
    /// Trusted reverse proxies.
    public static let trustedProxies = Setting("trusted_proxies", [String](), type: "array of addresses or CIDR ranges",
        "Reverse proxies and load balancers whose `Forwarded` (RFC 7239), else `X-Forwarded-For` and `X-Forwarded-Proto`, headers name the client, such as [\"10.0.0.0/8\", \"2001:db8::/32\", \"192.0.2.7\"]. Read only when the connection comes from one of them, walking the chain from the right past trusted hops; from any other peer the headers change nothing. The client address keys the sign-in and native nonce limits (an IPv6 client by its /64). Empty: the peer is the client.")
    /// Idle and slow-client timeout.
    public static let connectionTimeout = Setting("connection_timeout_seconds", 30, type: "integer",
        "A connection that sends nothing for this long is closed, which also cuts off slow clients.")
    /// Worker threads.
    public static let threads = Setting("threads", 0, type: "integer",
        "HTTP worker threads per listen address; 0 means one per core.")
    /// TLS certificate.
    public static let tlsCertificate = Setting<String?>("tls_certificate_file", nil, type: "path",
        "PEM certificate chain; with tls_private_key serves https directly. Usually TLS ends at a load balancer instead.")
    /// TLS key.
    public static let tlsPrivateKey = Setting<String?>("tls_private_key", nil, type: "secret reference",
        "The PEM private key for tls_certificate_file, as \"file:PATH\" or \"env:NAME\".")
    static let http: [SettingEntry] = [maxBodyBytes.entry, maxHeaderBytes.entry, connectionLimit.entry,
                                       perAddressConnectionLimit.entry, trustedProxies.entry, connectionTimeout.entry, threads.entry, tlsCertificate.entry, tlsPrivateKey.entry]

    // MARK: lifetimes (seconds)
    /// Pending authorization request lifetime.
    public static let authorizationRequestLifetime = Setting("authorization_request", 600, type: "seconds",
        "How long a pending authorization request (the sign-in page) stays usable.")
    /// Code lifetime.
    public static let authorizationCodeLifetime = Setting("authorization_code", 300, type: "seconds",
        "Authorization code lifetime; codes are single use.")
    /// Access token lifetime.
    public static let accessTokenLifetime = Setting("access_token", 900, type: "seconds",
        "Access token (RFC 9068 JWT) lifetime.")
    /// ID token lifetime.
    public static let idTokenLifetime = Setting("id_token", 3600, type: "seconds", "ID token lifetime.")
    /// Refresh token idle lifetime.
    public static let refreshTokenLifetime = Setting("refresh_token", 2_592_000, type: "seconds",
        "How long an unused refresh token stays valid (30 days).")
    /// Refresh family absolute lifetime.
    public static let refreshFamilyLifetime = Setting("refresh_token_absolute", 7_776_000, type: "seconds",
        "Absolute lifetime of a refresh token family, however often it is rotated (90 days).")
    /// Rotation grace.
    public static let refreshGrace = Setting("refresh_token_reuse_grace", 30, type: "seconds",
        "After rotation, the previous refresh token may be retried for this long and gets the same successor; later reuse revokes the family.")
    /// SSO session idle timeout.
    public static let sessionIdle = Setting("session_idle", 86_400, type: "seconds",
        "The browser sign-in session ends after this long without use.")
    /// SSO session absolute timeout.
    public static let sessionAbsolute = Setting("session_absolute", 1_209_600, type: "seconds",
        "The browser sign-in session ends this long after sign-in, whatever its use.")
    static let lifetimes: [SettingEntry] = [authorizationRequestLifetime.entry, authorizationCodeLifetime.entry,
                                            accessTokenLifetime.entry, idTokenLifetime.entry, refreshTokenLifetime.entry,
                                            refreshFamilyLifetime.entry, refreshGrace.entry, sessionIdle.entry, sessionAbsolute.entry]

    // MARK: keys
    /// Access token algorithm.
    public static let accessTokenAlgorithm = Setting("access_token_algorithm", "ES256", type: "\"ES256\" | \"RS256\" | \"PS256\" | \"EdDSA\"",
        "Algorithm of access token signatures.")
    /// ID token algorithm.
    public static let idTokenAlgorithm = Setting("id_token_algorithm", "RS256", type: "\"RS256\" | \"ES256\" | \"PS256\" | \"EdDSA\"",
        "Default algorithm of ID token signatures (OpenID Connect requires RS256 to be available); clients may choose another.")
    /// Pre-publication.
    public static let keyPrepublish = Setting("prepublish_seconds", 3600, type: "seconds",
        "`signet keys rotate` publishes the new key in the JWKS this long before it starts signing, so caches see it first.")
    static let keys: [SettingEntry] = [accessTokenAlgorithm.entry, idTokenAlgorithm.entry, keyPrepublish.entry]

    // MARK: passwords
    /// Argon2id passes.
    public static let argonOps = Setting("argon2id_ops_limit", 2, type: "integer",
        "Argon2id passes (libsodium opslimit); 2 with 64 MiB is libsodium's INTERACTIVE level.")
    /// Argon2id memory.
    public static let argonMemory = Setting("argon2id_memory_kib", 65_536, type: "integer",
        "Argon2id memory in KiB.")
    static let passwords: [SettingEntry] = [argonOps.entry, argonMemory.entry]

    // MARK: maintenance
    /// How often expired rows are deleted.
    public static let purgeInterval = Setting("purge_interval", 3600, type: "seconds",
        "`signet serve` deletes expired authorization requests, codes, nonces, ended sessions, ended grants with their refresh tokens and old throttle records this often, on a background thread; 0 turns it off (then run `signet purge` from cron).")
    /// How long expired rows are kept.
    public static let purgeRetention = Setting("purge_retention", 86_400, type: "seconds",
        "How long a row is kept after it expired or ended before it is deleted, so a replay of a recently expired code or refresh token is still recognised as one (and revokes its grant) rather than seen as unknown.")
    static let maintenance: [SettingEntry] = [purgeInterval.entry, purgeRetention.entry]

    // MARK: log
    /// Request lines in the log.
    public static let logRequests = Setting("requests", false, type: "boolean",
        "Also log one line per request on standard error: method, path (never the query; control characters and non-ASCII escaped), status and duration. The most verbose log Signet has; it never holds a code, token, password, email or callback URL.")
    static let log: [SettingEntry] = [logRequests.entry]

    // MARK: clients (each entry of the `clients` array)
    /// Client id.
    public static let clientID = Setting("id", "", type: "string (required)",
        "The client_id: 1 to 128 characters from A-Z a-z 0-9 - . _ ~.")
    /// Display name.
    public static let clientName = Setting<String?>("name", nil, type: "string",
        "The name shown on the consent page; defaults to the id.")
    /// Client type.
    public static let clientType = Setting<String?>("type", nil, type: "\"public\" | \"confidential\"",
        "Public clients (native apps) have no secret and must use PKCE; confidential clients authenticate with a secret. Defaults to confidential when a secret is given, public otherwise.")
    /// Secret reference.
    public static let clientSecret = Setting<String?>("secret", nil, type: "secret reference",
        "Confidential clients only: \"env:NAME\" or \"file:PATH\" holding the secret (at least 32 characters; `signet clients add` generates such secrets). Stored only as a keyed hash.")
    /// Redirect URIs.
    public static let clientRedirectURIs = Setting("redirect_uris", [String](), type: "array of URI",
        "Exact redirect URIs (RFC 8252): reverse-domain private-use schemes (com.example.app:/callback, public clients only), http on 127.0.0.1 or [::1] (any port matches), or https. No fragments or wildcards.")
    /// Post-logout redirect URIs.
    public static let clientPostLogoutRedirectURIs = Setting("post_logout_redirect_uris", [String](), type: "array of URI",
        "Exact URIs the end-session endpoint may redirect to after logout; the same rules as redirect_uris.")
    /// Allowed scope.
    public static let clientScope = Setting("scope", "openid profile email offline_access", type: "string",
        "The most the client may ask for, space separated.")
    /// Grant types.
    public static let clientGrantTypes = Setting<[String]?>("grant_types", nil, type: "array of grant type",
        "authorization_code, refresh_token, client_credentials (confidential clients only). Default: [\"authorization_code\", \"refresh_token\"].")
    /// First-party flag.
    public static let clientFirstParty = Setting("first_party", false, type: "boolean",
        "First-party clients skip the consent page.")
    /// Authentication method.
    public static let clientAuthMethod = Setting<String?>("token_endpoint_auth_method", nil, type: "\"client_secret_basic\" | \"client_secret_post\" | \"none\"",
        "How the client authenticates: none for public clients (the default for them), client_secret_basic by default for confidential ones. A client that uses another method gets invalid_client (401) whose error_description names the registered method.")
    /// ID token algorithm.
    public static let clientIDTokenAlgorithm = Setting<String?>("id_token_algorithm", nil, type: "\"RS256\" | \"ES256\" | \"PS256\" | \"EdDSA\"",
        "Algorithm of this client's ID tokens; defaults to keys.id_token_algorithm.")
    /// Access token lifetime.
    public static let clientAccessTokenLifetime = Setting<Int?>("access_token_lifetime", nil, type: "seconds",
        "Overrides lifetimes.access_token for this client (30 to 86400).")
    /// Refresh token lifetime.
    public static let clientRefreshTokenLifetime = Setting<Int?>("refresh_token_lifetime", nil, type: "seconds",
        "Overrides lifetimes.refresh_token for this client (60 up to lifetimes.refresh_token_absolute).")
    /// ID token lifetime.
    public static let clientIDTokenLifetime = Setting<Int?>("id_token_lifetime", nil, type: "seconds",
        "Overrides lifetimes.id_token for this client (30 to 86400).")
    /// Headless API.
    public static let clientAllowHeadless = Setting("allow_headless", false, type: "boolean",
        "Whether the client may use the headless JSON sign-in API.")
    /// RFC 8707 resources.
    public static let clientResources = Setting("resources", [String](), type: "array of URI",
        "The APIs (RFC 8707 resource indicators, exact absolute URIs without a fragment) this client may ask access tokens for with resource=; their tokens carry the resource as aud. Empty (the default): the client may name no resource, and its access tokens carry the issuer as aud; any resource parameter is refused with invalid_target.")
    static let client: [SettingEntry] = [clientID.entry, clientName.entry, clientType.entry, clientSecret.entry,
                                         clientRedirectURIs.entry, clientPostLogoutRedirectURIs.entry, clientScope.entry,
                                         clientGrantTypes.entry, clientFirstParty.entry, clientAuthMethod.entry,
                                         clientIDTokenAlgorithm.entry, clientAccessTokenLifetime.entry,
                                         clientRefreshTokenLifetime.entry, clientIDTokenLifetime.entry, clientAllowHeadless.entry,
                                         clientResources.entry]
}
