import Foundation
import SignetClientCore
import SignetWire

/// One upstream provider as configured (`connections` in `signet.json`), without its secrets
/// (see `ConnectionCredentials`).
public struct Connection: Sendable, Equatable {
    /// The stable id: the callback path segment and part of every federated identity's key.
    public var id: String
    /// The kind of provider.
    public var type: ConnectionType
    /// The button label.
    public var displayName: String
    /// An optional logo URL for the button.
    public var logoURL: String?
    /// Signet's client id at the provider (the `aud` its ID tokens must carry).
    public var clientID: String
    /// The provider's issuer, compared exactly with `iss`.
    public var issuer: String
    /// Where the discovery document is, when not at `{issuer}/.well-known/openid-configuration`.
    public var discoveryURL: String?
    /// Overrides the authorization endpoint (GitHub's default, or a discovered one).
    public var authorizationEndpoint: String?
    /// Overrides the token endpoint.
    public var tokenEndpoint: String?
    /// GitHub's API base (`/user`, `/user/emails`).
    public var apiBaseURL: String?
    /// Client authentication at the token endpoint as configured; nil when the configuration
    /// names none (then `authenticationMethod` is the type's default, and an `oidc` connection
    /// follows the provider's discovery document: see `UpstreamProvider`).
    public var configuredAuthenticationMethod: ClientAuthenticationMethod?
    /// Client authentication at the token endpoint: as configured, else the type's default.
    public var authenticationMethod: ClientAuthenticationMethod {
        configuredAuthenticationMethod ?? type.defaultAuthenticationMethod
    }
    /// Scopes asked of the provider.
    public var scopes: [String]
    /// Whether a verified email may link a new identity to an existing account.
    public var allowLinking: Bool
    /// When set, the only email domains accepted (lowercased).
    public var allowedEmailDomains: [String]?
    /// Google Workspace domain (`hd`).
    public var hostedDomain: String?
    /// Email domains sent straight to this provider (home-realm discovery), lowercased.
    public var homeRealmDomains: [String]
    /// A disabled connection shows no button and refuses callbacks.
    public var enabled: Bool
    /// Time limit of each outbound call to the provider, in seconds.
    public var timeoutSeconds: Int
    /// Apple: the team id (client-secret `iss`).
    public var appleTeamID: String?
    /// Apple: the key id (client-secret `kid`).
    public var appleKeyID: String?
    /// Audiences accepted for native ID-token sign-in.
    public var nativeClientIDs: [String]
    /// Whether native ID-token sign-in is allowed.
    public var nativeSignIn: Bool
    /// A PEM file of CA certificates trusted for this provider instead of the system's (a
    /// provider behind a private CA); nil: the system's trust store.
    public var trustedCertificatesFile: String?

    /// Creates a connection; unset values take the type's defaults.
    public init(id: String, type: ConnectionType, clientID: String, displayName: String? = nil, logoURL: String? = nil,
                issuer: String? = nil, discoveryURL: String? = nil, authorizationEndpoint: String? = nil,
                tokenEndpoint: String? = nil, apiBaseURL: String? = nil,
                authenticationMethod: ClientAuthenticationMethod? = nil, scopes: [String]? = nil,
                allowLinking: Bool = false, allowedEmailDomains: [String]? = nil, hostedDomain: String? = nil,
                homeRealmDomains: [String] = [], enabled: Bool = true, timeoutSeconds: Int = 10, appleTeamID: String? = nil,
                appleKeyID: String? = nil, nativeClientIDs: [String] = [], nativeSignIn: Bool = false,
                trustedCertificatesFile: String? = nil) {
        self.id = id
        self.type = type
        self.clientID = clientID
        self.displayName = displayName ?? type.defaultDisplayName ?? id
        self.logoURL = logoURL
        self.issuer = issuer ?? type.defaultIssuer ?? ""
        self.discoveryURL = discoveryURL
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.apiBaseURL = apiBaseURL
        self.configuredAuthenticationMethod = authenticationMethod
        self.scopes = scopes ?? type.defaultScopes
        self.allowLinking = allowLinking
        self.allowedEmailDomains = allowedEmailDomains?.map { $0.lowercased() }
        self.hostedDomain = hostedDomain?.lowercased()
        self.homeRealmDomains = homeRealmDomains.map { $0.lowercased() }
        self.enabled = enabled
        self.timeoutSeconds = timeoutSeconds
        self.appleTeamID = appleTeamID
        self.appleKeyID = appleKeyID
        self.nativeClientIDs = nativeClientIDs
        self.nativeSignIn = nativeSignIn
        self.trustedCertificatesFile = trustedCertificatesFile
    }

    /// The discovery document URL: `discoveryURL` when set, else the issuer's standard location
    /// (`DiscoveryClient.discoveryURL(for:)`, OIDC Discovery §4.1); nil when neither is a URL.
    public var discoveryDocumentURL: URL? {
        discoveryURL.map { URL(string: $0) } ?? DiscoveryClient.discoveryURL(for: issuer)
    }

    /// Whether an email's domain is acceptable for this connection (always, when no list is set).
    public func acceptsEmailDomain(_ email: String?) -> Bool {
        guard let allowed = allowedEmailDomains, !allowed.isEmpty else { return true }
        guard let email, let domain = Connection.domain(of: email) else { return false }
        return allowed.contains(domain)
    }

    /// The lowercased domain of an email address, or nil.
    public static func domain(of email: String) -> String? {
        guard let at = email.lastIndex(of: "@") else { return nil }
        let domain = email[email.index(after: at)...].lowercased()
        return domain.isEmpty ? nil : domain
    }

    /// Why a connection id is unusable, or nil: 1 to 64 characters from a-z 0-9 - _.
    public static func idProblem(_ id: String) -> String? {
        guard (1...64).contains(id.utf8.count),
              id.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else { return "must be 1 to 64 characters from a-z 0-9 - _" }
        return nil
    }
}
