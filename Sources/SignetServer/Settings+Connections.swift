import SignetFederation

extension Settings {
    // MARK: connections (each entry of the `connections` array)
    /// Connection id.
    static let connectionID = Setting(\ConnectionEntry.id, "id", "", .string(), required: true,
        "The connection id: 1 to 64 characters from a-z 0-9 - _. It names the provider callback, /oauth2/callback/{id}, and federated identities are keyed by it, so keep it stable.")
    /// Provider kind.
    static let connectionType = Setting(\ConnectionEntry.type, "type", nil, .optional(.oneOf), required: true,
        "The kind of provider. google and apple are OpenID providers with well-known defaults; github is OAuth only (the user comes from its user API); oidc is any OpenID provider configured from its discovery document.")
    /// Button label.
    static let connectionDisplayName = Setting(\ConnectionEntry.displayName, "display_name", nil, .optional(.string()),
        "The label of the sign-in button (\"Sign in with …\"); defaults to Google, Apple, GitHub or the id.")
    /// Button logo.
    static let connectionLogoURL = Setting(\ConnectionEntry.logoURL, "logo_url", nil, .optional(.string("https URL")),
        "An optional logo shown on the sign-in button and returned by the headless API.")
    /// Client id at the provider.
    static let connectionClientID = Setting(\ConnectionEntry.clientID, "client_id", "", .string(), required: true,
        "Signet's client id at the provider (Apple: the Services ID). ID tokens must name it in aud.")
    /// Client secret reference.
    static let connectionClientSecret = Setting(\ConnectionEntry.clientSecret, "client_secret", nil, .optional(.secret),
        "Signet's client secret at the provider, \"env:NAME\" or \"file:PATH\". Required for google, github and oidc unless token_endpoint_auth_method is none; not used for apple (see private_key).")
    /// Issuer.
    static let connectionIssuer = Setting(\ConnectionEntry.issuer, "issuer", nil, .optional(.string("URL")),
        "The provider's issuer; ID tokens must carry exactly this iss. Required for oidc; google defaults to https://accounts.google.com and apple to https://appleid.apple.com.")
    /// Discovery document.
    static let connectionDiscoveryURL = Setting(\ConnectionEntry.discoveryURL, "discovery_url", nil, .optional(.string("URL")),
        "Where the discovery document is; defaults to {issuer}/.well-known/openid-configuration. Its issuer must still equal issuer exactly, and every endpoint it names (authorization, token, jwks_uri, userinfo, revocation, end_session) must be https, or http on a loopback address, as a configured URL must: otherwise the connection fails (its status names the member) and nothing is sent there.")
    /// Authorization endpoint override.
    static let connectionAuthorizationEndpoint = Setting(\ConnectionEntry.authorizationEndpoint, "authorization_endpoint", nil, .optional(.string("URL")),
        "Overrides the provider's authorization endpoint (github defaults to https://github.com/login/oauth/authorize).")
    /// Token endpoint override.
    static let connectionTokenEndpoint = Setting(\ConnectionEntry.tokenEndpoint, "token_endpoint", nil, .optional(.string("URL")),
        "Overrides the provider's token endpoint (github defaults to https://github.com/login/oauth/access_token).")
    /// GitHub API base.
    static let connectionAPIBaseURL = Setting(\ConnectionEntry.apiBaseURL, "api_base_url", nil, .optional(.string("URL")),
        "github only: the API base for GET /user and GET /user/emails; defaults to https://api.github.com.")
    /// Client authentication.
    static let connectionAuthMethod = Setting(\ConnectionEntry.authenticationMethod, "token_endpoint_auth_method", nil, .optional(.oneOf),
        "How Signet authenticates at the provider's token endpoint; defaults to client_secret_post for google, apple and github. For oidc the default follows the discovery document's token_endpoint_auth_methods_supported: client_secret_basic when it is listed or the list is absent, else client_secret_post.")
    /// Scopes.
    static let connectionScopes = Setting(\ConnectionEntry.scopes, "scopes", nil, .optional(.strings()),
        "Scopes asked of the provider; defaults to [\"openid\", \"email\", \"profile\"] (apple: [\"openid\", \"email\", \"name\"], github: [\"read:user\", \"user:email\"]).")
    /// Linking by verified email.
    static let connectionAllowLinking = Setting(\ConnectionEntry.allowLinking, "allow_linking", false, .boolean,
        "Whether a new upstream identity whose email the provider reports as verified may be linked to an existing account with that email. Otherwise the user proves the existing account with its password first (`/federation/link`).")
    /// Allowed email domains.
    static let connectionAllowedEmailDomains = Setting(\ConnectionEntry.allowedEmailDomains, "allowed_email_domains", nil, .optional(.strings("array of domain")),
        "When set, only users whose verified email is in one of these domains may sign in through this connection.")
    /// Google hosted domain.
    static let connectionHostedDomain = Setting(\ConnectionEntry.hostedDomain, "hosted_domain", nil, .optional(.string("domain")),
        "google only: the Google Workspace domain; sent as hd and required in the ID token's hd claim.")
    /// Home-realm discovery.
    static let connectionHomeRealmDomains = Setting(\ConnectionEntry.homeRealmDomains, "home_realm_domains", [], .strings("array of domain"),
        "Email domains that belong to this provider: typing such an email on the sign-in page goes straight to the provider. A domain may belong to one connection only.")
    /// Enabled flag.
    static let connectionEnabled = Setting(\ConnectionEntry.enabled, "enabled", true, .boolean,
        "A disabled connection shows no button and its callbacks are refused.")
    /// Apple team id.
    static let connectionTeamID = Setting(\ConnectionEntry.appleTeamID, "team_id", nil, .optional(.string()),
        "apple only (required for the web flow; an apple connection without team_id, key_id and private_key serves native_sign_in only): the Apple Developer team id, iss of the client-secret JWT.")
    /// Apple key id.
    static let connectionKeyID = Setting(\ConnectionEntry.appleKeyID, "key_id", nil, .optional(.string()),
        "apple only (required): the id of the Sign in with Apple key, kid of the client-secret JWT.")
    /// Apple private key.
    static let connectionPrivateKey = Setting(\ConnectionEntry.privateKey, "private_key", nil, .optional(.secret),
        "apple only (required): the .p8 private key (PKCS #8 PEM), \"file:PATH\" or \"env:NAME\". Signet mints the ES256 client secret from it and renews it before it expires.")
    /// Outbound time limit.
    static let connectionCallTimeout = Setting(\ConnectionEntry.timeoutSeconds, "timeout_seconds", 10, .seconds(1...60),
        "Time limit of each call to this provider (discovery, JWKS, token, user API). Responses are also limited to 1 MiB and redirects are never followed.")
    /// Private CA for this provider.
    static let connectionCAFile = Setting(\ConnectionEntry.trustedCertificatesFile, "ca_file", nil, .optional(.string("path")),
        "A PEM file of CA certificates to trust for this provider's https endpoints instead of the system's trust store (a provider behind a private CA). Host names are still checked; the file must be readable when Signet starts.")
    /// Native ID-token audiences.
    static let connectionNativeClientIDs = Setting(\ConnectionEntry.nativeClientIDs, "native_client_ids", [], .strings(),
        "The audiences accepted for native ID-token sign-in (the client ids of the iOS and Android apps at the provider).")
    /// Native sign-in switch.
    static let connectionNativeSignIn = Setting(\ConnectionEntry.nativeSignIn, "native_sign_in", false, .boolean,
        "Whether apps may sign in by presenting an ID token from this provider's native SDK.")
    /// The settings of each `connections` entry, in reference order.
    static let connection = SettingsGroup<ConnectionEntry>(key: "connections[]", title: "Upstream connections (each entry of the array)", settings: [
        connectionID.entry, connectionType.entry, connectionDisplayName.entry, connectionLogoURL.entry,
        connectionClientID.entry, connectionClientSecret.entry, connectionIssuer.entry, connectionDiscoveryURL.entry,
        connectionAuthorizationEndpoint.entry, connectionTokenEndpoint.entry, connectionAPIBaseURL.entry,
        connectionAuthMethod.entry, connectionScopes.entry, connectionAllowLinking.entry,
        connectionAllowedEmailDomains.entry, connectionHostedDomain.entry, connectionHomeRealmDomains.entry,
        connectionEnabled.entry, connectionCallTimeout.entry, connectionCAFile.entry, connectionTeamID.entry,
        connectionKeyID.entry, connectionPrivateKey.entry, connectionNativeClientIDs.entry,
        connectionNativeSignIn.entry,
    ])
}
