import SignetCore
import SignetCrypto
import SignetHTTP
import SignetMail
import SignetSQLite

/// Every setting of `signet.json`: key, kind of value (with its range or allowed values), default,
/// meaning and the property it is stored in. This file is the configuration reference: the
/// loader, its checks and `signet config-reference` (docs/configuration.md) all iterate these
/// groups, so adding a setting is one declaration here, listed in its group, plus the stored
/// property it writes to.
public enum Settings {
    /// The groups of `signet.json` outside `clients` and `connections`, in reference order.
    public static let sections = [topLevel, database, http, lifetimes, keys, passwords, maintenance, mail, passkeys, nativeApps, accounts, mfa, organizations, log, branding, admin, logging, audit, domains]

    // MARK: top level
    /// The issuer identifier.
    public static let issuer = Setting(\SignetConfiguration.issuer, "issuer", "http://127.0.0.1:8080",
                                       .string("URL", problem: { SignetConfiguration.issuerProblem($0) }),
        "The issuer identifier: the exact `iss` in every token and the base of every endpoint URL. https, or http on a loopback address for local use; no query or fragment.")
    /// Listen addresses.
    public static let listen = Setting(\SignetConfiguration.listen, "listen", ["127.0.0.1:8080"],
                                       .strings("array of HOST:PORT", problem: { SignetConfiguration.listenProblem($0) }),
        "Addresses to accept connections on, such as \"127.0.0.1:8080\", \"[::1]:8080\" or \"0.0.0.0:443\". Port 0 picks a free port.")
    /// The data folder.
    public static let dataDirectory = Setting(\SignetConfiguration.dataDirectory, "data_dir", "./signet-data", .string("path"),
        "The folder for the SQLite database and the generated master key. Relative paths in other settings are resolved against it. PostgreSQL nodes keep nothing in it.")
    /// The master key reference.
    public static let masterKey = Setting(\SignetConfiguration.masterKey, "master_key", SecretReference.file("master.key"), .secret,
        "The 32-byte key (hex or base64, or 32 raw bytes) that encrypts signing keys at rest and keys the token hashes: \"env:NAME\" or \"file:PATH\". The embedded default creates the file with mode 0600 when it is missing. With PostgreSQL it must be set explicitly, is never generated, and every node needs the same key.")
    /// The top-level settings, in reference order.
    public static let topLevel = SettingsGroup<SignetConfiguration>(key: nil, title: "Top level", settings: [
        issuer.entry, listen.entry, dataDirectory.entry, masterKey.entry,
    ])

    // MARK: database
    /// Database driver.
    public static let databaseDriver = Setting(\SignetConfiguration.database.driver, "driver", DatabaseDriver.sqlite, .oneOf,
        "The storage backend. The embedded default is SQLite in WAL mode, for one node; PostgreSQL lets several stateless nodes share one database.")
    /// SQLite file.
    public static let databasePath = Setting(\SignetConfiguration.database.path, "path", "signet.db", .string("path"),
        "SQLite only: the database file, relative to data_dir.")
    /// PostgreSQL connection string.
    public static let databaseURL = Setting(\SignetConfiguration.database.url, "url", nil, .optional(.secret),
        "PostgreSQL only, and required there: \"env:NAME\" or \"file:PATH\" holding a libpq connection string (`host=… dbname=… user=…`) or a `postgresql://` URL, which may include a password.")
    /// PostgreSQL pool size.
    public static let databaseMaxConnections = Setting(\SignetConfiguration.database.maxConnections, "max_connections", 16, .integer(1...1000),
        "PostgreSQL only: the most connections one node opens at once; requests beyond that wait for a free one.")
    /// PostgreSQL statement and lock timeout.
    public static let databaseStatementTimeout = Setting(\SignetConfiguration.database.statementTimeoutSeconds, "statement_timeout", 10, .seconds(1...600),
        "PostgreSQL only: the longest one SQL statement may run or wait for a lock (statement_timeout and lock_timeout on every connection); past it the statement is cancelled, its transaction rolled back, and the request fails with a server error. A transaction left idle six times this long is ended by the server.")
    /// SQLite durability.
    public static let databaseSynchronous = Setting(\SignetConfiguration.database.synchronous, "synchronous", SQLiteSynchronous.full, .oneOf,
        "SQLite only: \"full\" syncs the write-ahead log at every commit, so a committed rotation, revocation or sign-out survives a power loss or OS crash. \"normal\" syncs only at checkpoints: commits are cheaper, the database is never corrupted and a process crash loses nothing, but the last commits before a power loss or OS crash can roll back, so a revoked token or ended session can come back and a rotation can be lost (docs/operations.md, \"Durability\"). PostgreSQL's equivalent is its own synchronous_commit.")
    /// The settings of the `database` object, in reference order.
    public static let database = SettingsGroup<SignetConfiguration>(key: "database", title: "Storage", settings: [
        databaseDriver.entry, databasePath.entry, databaseURL.entry, databaseMaxConnections.entry,
        databaseStatementTimeout.entry, databaseSynchronous.entry,
    ])

    // MARK: http
    /// Body limit.
    public static let maxBodyBytes = Setting(\SignetConfiguration.http.maxBodyBytes, "max_body_bytes", 1_048_576, .integer(1024...1_073_741_824),
        "Largest request body accepted; larger bodies are refused with 413 before they are read.")
    /// Header limit.
    public static let maxHeaderBytes = Setting(\SignetConfiguration.http.maxHeaderBytes, "max_header_bytes", 16_384, .integer(1024...1_048_576),
        "Largest request head (request line and headers) accepted.")
    /// Connection limit.
    public static let connectionLimit = Setting(\SignetConfiguration.http.connectionLimit, "connection_limit", 1024, .integer(1...100_000),
        "Most simultaneous connections per listen address.")
    /// Per-address connection limit.
    public static let perAddressConnectionLimit = Setting(\SignetConfiguration.http.perAddressConnectionLimit, "per_address_connection_limit", 64, .integer(0...100_000),
        "Most simultaneous connections from one peer address per listen address (libmicrohttpd's per-IP limit); more are refused at accept. 0 turns it off. It counts the TCP peer, so behind a reverse proxy it counts the proxy: set it above the proxy's connection pool, or to 0.")
    /// Trusted reverse proxies.
    public static let trustedProxies = Setting(\SignetConfiguration.http.trustedProxies, "trusted_proxies", [], .strings("array of addresses or CIDR ranges", problem: { proxyProblem($0) }),
        "Reverse proxies and load balancers whose `Forwarded` (RFC 7239), else `X-Forwarded-For` and `X-Forwarded-Proto`, headers name the client, such as [\"10.0.0.0/8\", \"2001:db8::/32\", \"192.0.2.7\"]. Read only when the connection comes from one of them, walking the chain from the right past trusted hops; from any other peer the headers change nothing. The client address keys the sign-in and native nonce limits (an IPv6 client by its /64). Empty: the peer is the client.")
    /// Idle and slow-client timeout.
    public static let connectionTimeout = Setting(\SignetConfiguration.http.connectionTimeoutSeconds, "connection_timeout_seconds", 30, .seconds(1...3600),
        "A connection that sends nothing for this long is closed, which also cuts off slow clients.")
    /// Worker threads.
    public static let threads = Setting(\SignetConfiguration.http.threads, "threads", 0, .integer(0...256),
        "HTTP worker threads per listen address; 0 means 16 with SQLite (at least one per core), so that the requests whose writes wait for one commit's sync can share the next (group commit), and with PostgreSQL one per pooled connection (`database.max_connections`, at least one per core), since a request's store calls wait on the database while they hold its thread.")
    /// TLS certificate.
    public static let tlsCertificate = Setting(\SignetConfiguration.http.tlsCertificateFile, "tls_certificate_file", nil, .optional(.string("path")),
        "PEM certificate chain; with tls_private_key serves https directly. Usually TLS ends at a load balancer instead.")
    /// TLS key.
    public static let tlsPrivateKey = Setting(\SignetConfiguration.http.tlsPrivateKey, "tls_private_key", nil, .optional(.secret),
        "The PEM private key for tls_certificate_file, as \"file:PATH\" or \"env:NAME\".")
    /// The settings of the `http` object, in reference order.
    public static let http = SettingsGroup<SignetConfiguration>(key: "http", title: "HTTP listeners", settings: [
        maxBodyBytes.entry, maxHeaderBytes.entry, connectionLimit.entry, perAddressConnectionLimit.entry,
        trustedProxies.entry, connectionTimeout.entry, threads.entry, tlsCertificate.entry, tlsPrivateKey.entry,
    ])

    // MARK: lifetimes (seconds)
    /// Pending authorization request lifetime.
    public static let authorizationRequestLifetime = Setting(\SignetConfiguration.lifetimes.authorizationRequest, "authorization_request", 600, .seconds(60...3600),
        "How long a pending authorization request (the sign-in page) stays usable.")
    /// Code lifetime.
    public static let authorizationCodeLifetime = Setting(\SignetConfiguration.lifetimes.authorizationCode, "authorization_code", 300, .seconds(10...600),
        "Authorization code lifetime; codes are single use.")
    /// Access token lifetime.
    public static let accessTokenLifetime = Setting(\SignetConfiguration.lifetimes.accessToken, "access_token", 900, .seconds(30...86_400),
        "Access token (RFC 9068 JWT) lifetime.")
    /// ID token lifetime.
    public static let idTokenLifetime = Setting(\SignetConfiguration.lifetimes.idToken, "id_token", 3600, .seconds(30...86_400),
        "ID token lifetime.")
    /// Refresh token idle lifetime.
    public static let refreshTokenLifetime = Setting(\SignetConfiguration.lifetimes.refreshToken, "refresh_token", 2_592_000, .seconds(60...31_536_000),
        "How long an unused refresh token stays valid (30 days).")
    /// Refresh family absolute lifetime.
    public static let refreshFamilyLifetime = Setting(\SignetConfiguration.lifetimes.refreshFamily, "refresh_token_absolute", 7_776_000, .seconds(60...63_072_000),
        "Absolute lifetime of a refresh token family, however often it is rotated (90 days).")
    /// Rotation grace.
    public static let refreshGrace = Setting(\SignetConfiguration.lifetimes.refreshGrace, "refresh_token_reuse_grace", 30, .seconds(0...300),
        "After rotation, the previous refresh token may be retried for this long and gets the same successor; later reuse revokes the family.")
    /// SSO session idle timeout.
    public static let sessionIdle = Setting(\SignetConfiguration.lifetimes.sessionIdle, "session_idle", 86_400, .seconds(60...31_536_000),
        "The browser sign-in session ends after this long without use.")
    /// SSO session absolute timeout.
    public static let sessionAbsolute = Setting(\SignetConfiguration.lifetimes.sessionAbsolute, "session_absolute", 1_209_600, .seconds(60...31_536_000),
        "The browser sign-in session ends this long after sign-in, whatever its use.")
    /// The settings of the `lifetimes` object, in reference order.
    public static let lifetimes = SettingsGroup<SignetConfiguration>(key: "lifetimes", title: "Lifetimes (seconds)", settings: [
        authorizationRequestLifetime.entry, authorizationCodeLifetime.entry, accessTokenLifetime.entry,
        idTokenLifetime.entry, refreshTokenLifetime.entry, refreshFamilyLifetime.entry, refreshGrace.entry,
        sessionIdle.entry, sessionAbsolute.entry,
    ])

    // MARK: keys
    /// Access token algorithm.
    public static let accessTokenAlgorithm = Setting(\SignetConfiguration.keys.accessTokenAlgorithm, "access_token_algorithm", SignatureAlgorithm.es256, .oneOf,
        "Algorithm of access token signatures.")
    /// ID token algorithm.
    public static let idTokenAlgorithm = Setting(\SignetConfiguration.keys.idTokenAlgorithm, "id_token_algorithm", SignatureAlgorithm.rs256, .oneOf,
        "Default algorithm of ID token signatures (OpenID Connect requires RS256 to be available); clients may choose another.")
    /// Pre-publication.
    public static let keyPrepublish = Setting(\SignetConfiguration.keys.prepublishSeconds, "prepublish_seconds", 3600, .seconds(0...2_592_000),
        "`signet keys rotate` publishes the new key in the JWKS this long before it starts signing, so caches see it first.")
    /// The settings of the `keys` object, in reference order.
    public static let keys = SettingsGroup<SignetConfiguration>(key: "keys", title: "Signing keys", settings: [
        accessTokenAlgorithm.entry, idTokenAlgorithm.entry, keyPrepublish.entry,
    ])

    // MARK: passwords
    /// Argon2id passes.
    public static let argonOps = Setting(\SignetConfiguration.passwords.opsLimit, "argon2id_ops_limit", 2, .integer(1...10),
        "Argon2id passes (libsodium opslimit); 2 with 64 MiB is libsodium's INTERACTIVE level.")
    /// Argon2id memory.
    public static let argonMemory = Setting(\SignetConfiguration.passwords.memoryKiB, "argon2id_memory_kib", 65_536, .integer(8192...4_194_304),
        "Argon2id memory in KiB.")
    /// The settings of the `passwords` object, in reference order.
    public static let passwords = SettingsGroup<SignetConfiguration>(key: "passwords", title: "Password hashing", settings: [
        argonOps.entry, argonMemory.entry,
    ])

    // MARK: maintenance
    /// How often expired rows are deleted.
    public static let purgeInterval = Setting(\SignetConfiguration.maintenance.purgeInterval, "purge_interval", 3600, .seconds(0...604_800),
        "`signet serve` deletes expired authorization requests, codes, nonces, ended sessions, ended grants with their refresh tokens, old throttle records and finished outbox mail this often, on a background thread; 0 turns it off (then run `signet purge` from cron).")
    /// How long expired rows are kept.
    public static let purgeRetention = Setting(\SignetConfiguration.maintenance.purgeRetention, "purge_retention", 86_400, .seconds(0...31_536_000),
        "How long a row is kept after it expired or ended before it is deleted, so a replay of a recently expired code or refresh token is still recognised as one (and revokes its grant) rather than seen as unknown.")
    /// How much a purge rests between its batches.
    public static let purgeRest = Setting(\SignetConfiguration.maintenance.purgeRest, "purge_rest", 9, .integer(0...100),
        "After each batch of deletes (200 rows of one table, in one transaction) a purge, periodic or `signet purge`, rests this many times as long as the batch took (at most 5 s), so it holds the database about 1/(1 + purge_rest) of the time and requests are served at close to their undisturbed rate meanwhile; 0 never rests (fastest, for a maintenance window: `signet purge --rest 0`).")
    /// The settings of the `maintenance` object, in reference order.
    public static let maintenance = SettingsGroup<SignetConfiguration>(key: "maintenance", title: "Expired data", settings: [
        purgeInterval.entry, purgeRetention.entry, purgeRest.entry,
    ])

    // MARK: mail
    /// The SMTP server.
    public static let mailSMTPURL = Setting(\SignetConfiguration.mail.smtpURL, "smtp_url", nil,
                                            .optional(.string("URL", problem: { smtpURLProblem($0) })),
        "Where Signet submits mail: `smtp://host[:port]` (port 587 by default; STARTTLS is required unless the host is loopback: 127.0.0.0/8, ::1 or localhost) or `smtps://host[:port]` (TLS from the first byte, port 465). No user name or password in the URL (use mail.username and mail.password). Unset: no mail is sent, and features that need mail are off. Mail waits in an outbox in the database and is retried for 24 hours.")
    /// The sender address.
    public static let mailFrom = Setting(\SignetConfiguration.mail.from, "from", nil,
                                         .optional(.string("address", problem: { mailAddressProblem($0) })),
        "The sender address of every message (the From header and the envelope), such as \"no-reply@example.com\". Required with smtp_url.")
    /// The sender name.
    public static let mailFromName = Setting(\SignetConfiguration.mail.fromName, "from_name", nil, .optional(.string()),
        "The sender name shown beside mail.from; branding.product_name when unset.")
    /// SMTP user name.
    public static let mailUsername = Setting(\SignetConfiguration.mail.username, "username", nil, .optional(.string()),
        "The user name for SMTP AUTH; unset: no AUTH. Needs mail.password.")
    /// SMTP password.
    public static let mailPassword = Setting(\SignetConfiguration.mail.password, "password", nil, .optional(.secret),
        "The password for SMTP AUTH: \"env:NAME\" or \"file:PATH\". Never printed or logged.")
    /// Trusted CA bundle.
    public static let mailCAFile = Setting(\SignetConfiguration.mail.caFile, "ca_file", nil, .optional(.string("path")),
        "A PEM bundle of the certificate authorities to trust for the SMTP server's certificate, instead of the system's; relative to data_dir.")
    /// Time limit of one submission.
    public static let mailTimeout = Setting(\SignetConfiguration.mail.timeoutSeconds, "timeout", 30, .seconds(1...300),
        "The longest one submission (connect, TLS, AUTH, the message) may take before it counts as a failed attempt and is retried later.")
    /// The settings of the `mail` object, in reference order.
    public static let mail = SettingsGroup<SignetConfiguration>(key: "mail", title: "Mail", settings: [
        mailSMTPURL.entry, mailFrom.entry, mailFromName.entry, mailUsername.entry, mailPassword.entry, mailCAFile.entry,
        mailTimeout.entry,
    ])

    // MARK: log
    /// Request lines in the log.
    public static let logRequests = Setting(\SignetConfiguration.log.requests, "requests", false, .boolean,
        "Also log one line per request on standard error: method, path (never the query; control characters and non-ASCII escaped), status and duration. The most verbose log Signet has; it never holds a code, token, password, email or callback URL.")
    /// The settings of the `log` object, in reference order.
    public static let log = SettingsGroup<SignetConfiguration>(key: "log", title: "Log", settings: [
        logRequests.entry,
    ])

    // MARK: clients (each entry of the `clients` array)
    /// Client id.
    static let clientID = Setting(\ClientEntry.spec.id, "id", "", .string(), required: true,
        "The client_id: 1 to 128 characters from A-Z a-z 0-9 - . _ ~.")
    /// Display name.
    static let clientName = Setting(\ClientEntry.spec.name, "name", nil, .optional(.string()),
        "The name shown on the consent page; defaults to the id.")
    /// Client type.
    static let clientType = Setting(\ClientEntry.type, "type", nil, .optional(.oneOf),
        "Public clients (native apps) have no secret and must use PKCE; confidential clients authenticate with a secret. Defaults to confidential when a secret is given, public otherwise.")
    /// Secret reference.
    static let clientSecret = Setting(\ClientEntry.secret, "secret", nil, .optional(.secret),
        "Confidential clients only: \"env:NAME\" or \"file:PATH\" holding the secret (at least 32 characters; `signet clients add` generates such secrets). Stored only as a keyed hash.")
    /// Redirect URIs.
    static let clientRedirectURIs = Setting(\ClientEntry.spec.redirectURIs, "redirect_uris", [], .strings("array of URI"),
        "Exact redirect URIs (RFC 8252): reverse-domain private-use schemes (com.example.app:/callback, public clients only), http on 127.0.0.1 or [::1] (any port matches), or https. No fragments or wildcards.")
    /// Post-logout redirect URIs.
    static let clientPostLogoutRedirectURIs = Setting(\ClientEntry.spec.postLogoutRedirectURIs, "post_logout_redirect_uris", [], .strings("array of URI"),
        "Exact URIs the end-session endpoint may redirect to after logout; the same rules as redirect_uris.")
    /// Allowed scope.
    static let clientScope = Setting(\ClientEntry.spec.scope, "scope", ClientRegistration.defaultScope, .optional(.string()),
        "The most the client may ask for, space separated. Include `organization` to let it ask for a user's organization (claims org_id, org_slug, org_roles; docs/organizations.md).")
    /// Grant types.
    static let clientGrantTypes = Setting(\ClientEntry.spec.grantTypes, "grant_types", nil, .optional(.strings("array of grant type")),
        "authorization_code, refresh_token, client_credentials (confidential clients only). Default: [\"authorization_code\", \"refresh_token\"].")
    /// First-party flag.
    static let clientFirstParty = Setting(\ClientEntry.spec.firstParty, "first_party", false, .boolean,
        "First-party clients skip the consent page.")
    /// Authentication method.
    static let clientAuthMethod = Setting(\ClientEntry.authenticationMethod, "token_endpoint_auth_method", nil, .optional(.oneOf),
        "How the client authenticates: none for public clients (the default for them), client_secret_basic by default for confidential ones. A client that uses another method gets invalid_client (401) whose error_description names the registered method.")
    /// ID token algorithm.
    static let clientIDTokenAlgorithm = Setting(\ClientEntry.idTokenAlgorithm, "id_token_algorithm", nil, .optional(.oneOf),
        "Algorithm of this client's ID tokens; defaults to keys.id_token_algorithm.")
    /// Access token lifetime.
    static let clientAccessTokenLifetime = Setting(\ClientEntry.spec.lifetimes.accessToken, "access_token_lifetime", nil, .optional(.seconds()),
        "Overrides lifetimes.access_token for this client (30 to 86400).")
    /// Refresh token lifetime.
    static let clientRefreshTokenLifetime = Setting(\ClientEntry.spec.lifetimes.refreshToken, "refresh_token_lifetime", nil, .optional(.seconds()),
        "Overrides lifetimes.refresh_token for this client (60 up to lifetimes.refresh_token_absolute).")
    /// ID token lifetime.
    static let clientIDTokenLifetime = Setting(\ClientEntry.spec.lifetimes.idToken, "id_token_lifetime", nil, .optional(.seconds()),
        "Overrides lifetimes.id_token for this client (30 to 86400).")
    /// Headless API.
    static let clientAllowHeadless = Setting(\ClientEntry.spec.allowHeadless, "allow_headless", false, .boolean,
        "Whether the client may use the headless JSON sign-in API.")
    /// RFC 8707 resources.
    static let clientResources = Setting(\ClientEntry.spec.allowedResources, "resources", [], .strings("array of URI"),
        "The APIs (RFC 8707 resource indicators, exact absolute URIs without a fragment) this client may ask access tokens for with resource=; their tokens carry the resource as aud. Empty (the default): the client may name no resource, and its access tokens carry the issuer as aud; any resource parameter is refused with invalid_target.")
    /// Application type.
    static let clientApplicationType = Setting(\ClientEntry.spec.applicationType, "application_type", nil, .optional(.oneOf),
        "What kind of app it is, as the admin API and the console store it: native (a public client, RFC 8252 §8.4), web, service or api (confidential clients). Unset: inferred (a public client is native, one with the code flow web, a client_credentials one service, or api without a scope). A type that does not fit the rest (native with a secret, service or api public or with redirect URIs) is a configuration error naming the entry.")
    /// The settings of each `clients` entry, in reference order.
    static let client = SettingsGroup<ClientEntry>(key: "clients[]", title: "Clients (each entry of the array)", settings: [
        clientID.entry, clientName.entry, clientType.entry, clientSecret.entry, clientRedirectURIs.entry,
        clientPostLogoutRedirectURIs.entry, clientScope.entry, clientGrantTypes.entry, clientFirstParty.entry,
        clientAuthMethod.entry, clientIDTokenAlgorithm.entry, clientAccessTokenLifetime.entry,
        clientRefreshTokenLifetime.entry, clientIDTokenLifetime.entry, clientAllowHeadless.entry, clientResources.entry,
        clientMFARequired.entry, clientEmailSignIn.entry, clientApplicationType.entry,
    ])

    /// Why a `mail.smtp_url` is unusable (SMTPEndpoint's own reason), or nil.
    static func smtpURLProblem(_ url: String) -> String? {
        do { _ = try SMTPEndpoint(url) } catch { return error.reason }
        return nil
    }

    /// Why a `mail.from` cannot stand in an SMTP envelope, or nil.
    static func mailAddressProblem(_ address: String) -> String? {
        do { _ = try MailAddress(address) } catch { return error.reason }
        return nil
    }

    /// Why a `trusted_proxies` entry is not an address or CIDR range, or nil.
    static func proxyProblem(_ entry: String) -> String? {
        do { _ = try IPNetwork(entry) } catch { return error.description }
        return nil
    }
}
