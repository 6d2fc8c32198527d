/// Every path Signet serves, as constants; `SignetApplication.routeTable()` gives each its kind and handler.
public enum Routes {
    /// OpenID Connect Discovery 1.0 §4.
    public static let openIDConfiguration = "/.well-known/openid-configuration"
    /// The landing page.
    public static let landing = "/"
    /// RFC 8414 §3.
    public static let oauthAuthorizationServer = "/.well-known/oauth-authorization-server"
    /// The JWKS (RFC 7517).
    public static let jwks = "/jwks.json"
    /// RFC 6749 §3.1.
    public static let authorize = "/authorize"
    /// RFC 6749 §3.2.
    public static let token = "/token"
    /// OpenID Connect Core §5.3.
    public static let userinfo = "/userinfo"
    /// RFC 7009.
    public static let revoke = "/revoke"
    /// RFC 7662.
    public static let introspect = "/introspect"
    /// OpenID Connect RP-Initiated Logout 1.0.
    public static let endSession = "/logout"
    /// The sign-in page.
    public static let signIn = "/signin"
    /// The sign-up page (`accounts.sign_up`).
    public static let signUp = "/signup"
    /// The page that asks for a mailed 6-digit code (verification, reset, email sign-in).
    public static let emailCode = "/email/code"
    /// The mailed link: a page that confirms with a button (mail scanners open links).
    public static let emailLink = "/email/link"
    /// An organization invitation's link, as the invitation mail carries it (`?token=sgi_…`): the
    /// page to accept it or sign up through it, and its form (docs/organizations.md).
    public static let invitation = "/invitation"
    /// Where a sign-in started from an invitation's page comes back (`AccountClient`'s second redirect URI).
    public static let invitationCallback = "/invitation/callback"
    /// "Forgot password?": asks for the address to send a reset code to.
    public static let passwordForgot = "/password/forgot"
    /// Email sign-in (`accounts.email_sign_in`): asks for the address to send a sign-in code to.
    public static let emailSignIn = "/email/signin"
    /// The consent page.
    public static let consent = "/consent"
    /// The organization page: a user in several organizations picks the one a request for scope
    /// `organization` is for.
    public static let organizationPicker = "/signin/organization"
    /// Starts a provider transaction from the sign-in page (a link or home-realm discovery).
    public static let federationStart = "/federation/start"
    /// The headless API's `authorizationUrl`: binds the system browser, then 302 to the provider.
    public static let federationLaunch = "/federation/launch"
    /// Linking an upstream identity to an existing account after its password (GET form, POST).
    public static let federationLink = "/federation/link"
    /// The provider callback, `/oauth2/callback/{connection}` (GET, and POST for form_post).
    public static let federationCallback = "/oauth2/callback/{connection}"
    /// The provider callback's prefix, before the connection id.
    public static let federationCallbackPrefix = "/oauth2/callback/"
    /// The headless native API: validates an authorization request, lists the providers.
    public static let headlessStart = "/headless/start"
    /// The headless native API: starts a provider transaction for a headless request.
    public static let headlessProviderStart = "/headless/provider/start"
    /// Liveness and readiness.
    public static let health = "/healthz"
    /// The account page (GET), and the account-deletion API (DELETE, with a bearer token).
    public static let account = "/account"
    /// The built-in account client's redirect URI (`AccountClient.callbackPath`).
    public static let accountCallback = "/account/callback"
    /// A fresh sign-in for the account page (`prompt=login`), before deleting without a password.
    public static let accountReauth = "/account/reauth"
    /// The account page's forms.
    public static let accountName = "/account/name"
    public static let accountPassword = "/account/password"
    public static let accountUnlink = "/account/unlink"
    public static let accountSessionEnd = "/account/sessions/end"
    public static let accountSessionsEndOthers = "/account/sessions/end-others"
    public static let accountAppRevoke = "/account/apps/revoke"
    public static let accountDelete = "/account/delete"
    /// Changing the account's email: asks for the new address, mails it a code (docs/accounts.md).
    public static let accountEmail = "/account/email"
    /// The second-factor step of a sign-in: a TOTP or recovery code (GET form, POST).
    public static let secondFactor = "/signin/second-factor"
    /// Setting up an authenticator app during a sign-in that needs one (GET form, POST).
    public static let secondFactorSetup = "/signin/second-factor/setup"
    /// Going on to the client after the recovery codes were shown (POST).
    public static let signInContinue = "/signin/continue"
    /// The signed-in user's authenticator app: set up, new recovery codes, remove (GET, POST).
    public static let accountTOTP = "/account/security/totp"
    /// One-time nonces for native ID-token sign-in (advertised as `native_nonce_endpoint`).
    public static let nativeNonce = "/native/nonce"
}
