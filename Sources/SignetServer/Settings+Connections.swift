extension Settings {
    // MARK: connections (each entry of the `connections` array)
    /// Connection id.
    public static let connectionID = Setting("id", "", type: "string (required)",
        "The connection id: 1 to 64 characters from a-z 0-9 - _. It names the provider callback, /oauth2/callback/{id}, and federated identities are keyed by it, so keep it stable.")
    /// Provider kind.
    public static let connectionType = Setting("type", "", type: "\"google\" | \"apple\" | \"github\" | \"oidc\" (required)",
        "The kind of provider. google and apple are OpenID providers with well-known defaults; github is OAuth only (the user comes from its user API); oidc is any OpenID provider configured from its discovery document.")
    /// Button label.
    public static let connectionDisplayName = Setting<String?>("display_name", nil, type: "string",
        "The label of the sign-in button (\"Sign in with …\"); defaults to Google, Apple, GitHub or the id.")
    /// Button logo.
    public static let connectionLogoURL = Setting<String?>("logo_url", nil, type: "https URL",
        "An optional logo shown on the sign-in button and returned by the headless API.")
    /// Client id at the provider.
    public static let connectionClientID = Setting("client_id", "", type: "string (required)",
        "Signet's client id at the provider (Apple: the Services ID). ID tokens must name it in aud.")
    /// Client secret reference.
    public static let connectionClientSecret = Setting<String?>("client_secret", nil, type: "secret reference",
        "Signet's client secret at the provider, \"env:NAME\" or \"file:PATH\". Required for google, github and oidc unless token_endpoint_auth_method is none; not used for apple (see private_key).")
    /// Issuer.
    public static let connectionIssuer = Setting<String?>("issuer", nil, type: "URL",
        "The provider's issuer; ID tokens must carry exactly this iss. Required for oidc; google defaults to https://accounts.google.com and apple to https://appleid.apple.com.")
    /// Discovery document.
    public static let connectionDiscoveryURL = Setting<String?>("discovery_url", nil, type: "URL",
        "Where the discovery document is; defaults to {issuer}/.well-known/openid-configuration. Its issuer must still equal issuer exactly.")
    /// Authorization endpoint override.
    public static let connectionAuthorizationEndpoint = Setting<String?>("authorization_endpoint", nil, type: "URL",
        "Overrides the provider's authorization endpoint (github defaults to https://github.com/login/oauth/authorize).")
    /// Token endpoint override.
    public static let connectionTokenEndpoint = Setting<String?>("token_endpoint", nil, type: "URL",
        "Overrides the provider's token endpoint (github defaults to https://github.com/login/oauth/access_token).")
    /// GitHub API base.
    public static let connectionAPIBaseURL = Setting<String?>("api_base_url", nil, type: "URL",
        "github only: the API base for GET /user and GET /user/emails; defaults to https://api.github.com.")
    /// Client authentication.
    public static let connectionAuthMethod = Setting<String?>("token_endpoint_auth_method", nil, type: "\"client_secret_basic\" | \"client_secret_post\" | \"none\"",
        "How Signet authenticates at the provider's token endpoint; defaults to client_secret_post for google, apple and github. For oidc the default follows the discovery document's token_endpoint_auth_methods_supported: client_secret_basic when it is listed or the list is absent, else client_secret_post.")
    /// Scopes.
    public static let connectionScopes = Setting<[String]?>("scopes", nil, type: "array of string",
        "Scopes asked of the provider; defaults to [\"openid\", \"email\", \"profile\"] (apple: [\"openid\", \"email\", \"name\"], github: [\"read:user\", \"user:email\"]).")
    /// Linking by verified email.
    public static let connectionAllowLinking = Setting("allow_linking", false, type: "boolean",
        "Whether a new upstream identity whose email the provider reports as verified may be linked to an existing account with that email. Otherwise the user proves the existing account with its password first (`/federation/link`).")
    /// Allowed email domains.
    public static let connectionAllowedEmailDomains = Setting<[String]?>("allowed_email_domains", nil, type: "array of domain",
        "When set, only users whose verified email is in one of these domains may sign in through this connection.")
    /// Google hosted domain.
    public static let connectionHostedDomain = Setting<String?>("hosted_domain", nil, type: "domain",
        "google only: the Google Workspace domain; sent as hd and required in the ID token's hd claim.")
    /// Home-realm discovery.
    public static let connectionHomeRealmDomains = Setting("home_realm_domains", [String](), type: "array of domain",
        "Email domains that belong to this provider: typing such an email on the sign-in page goes straight to the provider. A domain may belong to one connection only.")
    /// Enabled flag.
    public static let connectionEnabled = Setting("enabled", true, type: "boolean",
        "A disabled connection shows no button and its callbacks are refused.")
    /// Apple team id.
    public static let connectionTeamID = Setting<String?>("team_id", nil, type: "string",
        "apple only (required for the web flow; an apple connection without team_id, key_id and private_key serves native_sign_in only): the Apple Developer team id, iss of the client-secret JWT.")
    /// Apple key id.
    public static let connectionKeyID = Setting<String?>("key_id", nil, type: "string",
        "apple only (required): the id of the Sign in with Apple key, kid of the client-secret JWT.")
    /// Apple private key.
    public static let connectionPrivateKey = Setting<String?>("private_key", nil, type: "secret reference",
        "apple only (required): the .p8 private key (PKCS #8 PEM), \"file:PATH\" or \"env:NAME\". Signet mints the ES256 client secret from it and renews it before it expires.")
    /// Outbound time limit.
    public static let connectionCallTimeout = Setting("timeout_seconds", 10, type: "seconds",
        "Time limit of each call to this provider (discovery, JWKS, token, user API), 1 to 60. Responses are also limited to 1 MiB and redirects are never followed.")
    /// Private CA for this provider.
    public static let connectionCAFile = Setting<String?>("ca_file", nil, type: "path",
        "A PEM file of CA certificates to trust for this provider's https endpoints instead of the system's trust store (a provider behind a private CA). Host names are still checked; the file must be readable when Signet starts.")
    /// Native ID-token audiences.
    public static let connectionNativeClientIDs = Setting("native_client_ids", [String](), type: "array of string",
        "The audiences accepted for native ID-token sign-in (the client ids of the iOS and Android apps at the provider).")
    /// Native sign-in switch.
    public static let connectionNativeSignIn = Setting("native_sign_in", false, type: "boolean",
        "Whether apps may sign in by presenting an ID token from this provider's native SDK.")
    static let connection: [SettingEntry] = [
        connectionID.entry, connectionType.entry, connectionDisplayName.entry, connectionLogoURL.entry, connectionClientID.entry,
        connectionClientSecret.entry, connectionIssuer.entry, connectionDiscoveryURL.entry, connectionAuthorizationEndpoint.entry,
        connectionTokenEndpoint.entry, connectionAPIBaseURL.entry, connectionAuthMethod.entry, connectionScopes.entry,
        connectionAllowLinking.entry, connectionAllowedEmailDomains.entry, connectionHostedDomain.entry,
        connectionHomeRealmDomains.entry, connectionEnabled.entry, connectionCallTimeout.entry, connectionCAFile.entry, connectionTeamID.entry, connectionKeyID.entry,
        connectionPrivateKey.entry, connectionNativeClientIDs.entry, connectionNativeSignIn.entry,
    ]
}
