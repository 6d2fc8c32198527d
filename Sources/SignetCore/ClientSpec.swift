import SignetStore

/// A client as an administrator describes it (CLI flags or a `clients` entry of `signet.json`),
/// before the rules are applied. Nil fields take the defaults of `ClientRegistration`.
public struct ClientSpec: Sendable, Equatable {
    /// `client_id`.
    public var id: String
    /// Display name; defaults to the id.
    public var name: String?
    /// Public (native app, no secret) or confidential.
    public var isPublic: Bool
    /// Redirect URIs, exact strings.
    public var redirectURIs: [String]
    /// Post-logout redirect URIs, exact strings.
    public var postLogoutRedirectURIs: [String]
    /// The most the client may ask for, space separated; defaults to `openid profile email offline_access`.
    public var scope: String?
    /// Grant type names; nil for the defaults.
    public var grantTypes: [String]?
    /// First-party clients skip consent.
    public var firstParty: Bool
    /// `client_secret_basic` or `client_secret_post` for confidential clients, `none` for public ones.
    public var authenticationMethod: String?
    /// ID token algorithm; defaults to the server policy's.
    public var idTokenAlgorithm: String?
    /// Access, refresh and ID token lifetime overrides; nil ones are the server's.
    public var lifetimes: ClientTokenLifetimes
    /// May use the headless native API.
    public var allowHeadless: Bool
    /// RFC 8707 resources (APIs) the client may ask access tokens for, exact URIs; empty: none.
    public var allowedResources: [String]
    /// Sign-ins for this client need a second factor (`mfa_required`).
    public var mfaRequired = false
    /// Email codes and magic links for this client's sign-ins (`email_sign_in`); nil: the global setting.
    public var emailSignIn: Bool?
    /// What kind of app it is (`application_type`); nil: inferred from the rest at registration.
    public var applicationType: ApplicationType?

    /// Creates a spec.
    public init(id: String, name: String? = nil, isPublic: Bool, redirectURIs: [String] = [],
                postLogoutRedirectURIs: [String] = [], scope: String? = nil, grantTypes: [String]? = nil,
                firstParty: Bool = false, authenticationMethod: String? = nil, idTokenAlgorithm: String? = nil,
                lifetimes: ClientTokenLifetimes = ClientTokenLifetimes(),
                allowHeadless: Bool = false, allowedResources: [String] = []) {
        self.id = id
        self.name = name
        self.isPublic = isPublic
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.scope = scope
        self.grantTypes = grantTypes
        self.firstParty = firstParty
        self.authenticationMethod = authenticationMethod
        self.idTokenAlgorithm = idTokenAlgorithm
        self.lifetimes = lifetimes
        self.allowHeadless = allowHeadless
        self.allowedResources = allowedResources
    }
}

/// One rule a client spec breaks: the field (`redirect_uris[1]`) and what is wrong.
public struct ClientSpecIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field, named as in `signet.json`, with an index for list items.
    public var field: String
    /// What is wrong.
    public var message: String

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}

/// Every rule a client spec breaks.
public struct ClientRegistrationError: Error, Sendable, CustomStringConvertible {
    /// The issues, in field order.
    public var issues: [ClientSpecIssue]
    /// One line per issue.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
