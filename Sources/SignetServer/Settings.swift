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
        "The folder for the SQLite database and the generated master key. Relative paths in other settings are resolved against it.")
    /// The master key reference.
    public static let masterKey = Setting("master_key", "file:master.key", type: "secret reference",
        "The 32-byte key (hex or base64, or 32 raw bytes) that encrypts signing keys at rest and keys the token hashes: \"env:NAME\" or \"file:PATH\". The embedded default creates the file with mode 0600 when it is missing.")
    /// Top-level keys, for the reference.
    static let topLevel: [SettingEntry] = [issuer.entry, listen.entry, dataDirectory.entry, masterKey.entry]

    // MARK: database
    /// Database driver.
    public static let databaseDriver = Setting("driver", "sqlite", type: "\"sqlite\"",
        "The storage backend. The embedded default is SQLite in WAL mode.")
    /// SQLite file.
    public static let databasePath = Setting("path", "signet.db", type: "path",
        "The SQLite database file, relative to data_dir.")
    static let database: [SettingEntry] = [databaseDriver.entry, databasePath.entry]

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
                                       connectionTimeout.entry, threads.entry, tlsCertificate.entry, tlsPrivateKey.entry]

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
}
