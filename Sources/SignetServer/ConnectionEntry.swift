import SignetFederation
import SignetWire

/// One entry of the `connections` array as the settings read it, before the connection rules
/// apply and before `Connection` fills in the type's defaults. `Settings.connection` writes every
/// property (its declared default when the key is absent), so the initial values are placeholders.
struct ConnectionEntry {
    var id = ""
    var type: ConnectionType?
    var displayName: String?
    var logoURL: String?
    var clientID = ""
    var clientSecret: SecretReference?
    var issuer: String?
    var discoveryURL: String?
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var apiBaseURL: String?
    var authenticationMethod: ClientAuthenticationMethod?
    var scopes: [String]?
    var allowLinking = false
    var allowedEmailDomains: [String]?
    var hostedDomain: String?
    var homeRealmDomains: [String] = []
    var enabled = false
    var appleTeamID: String?
    var appleKeyID: String?
    var privateKey: SecretReference?
    var timeoutSeconds = 0
    var trustedCertificatesFile: String?
    var nativeClientIDs: [String] = []
    var nativeSignIn = false

    /// The connection, with the type's defaults for what the entry leaves unset (`oidc` when the
    /// type was missing or wrong: the entry is refused then anyway).
    var connection: Connection {
        Connection(
            id: id, type: type ?? .oidc, clientID: clientID, displayName: displayName, logoURL: logoURL, issuer: issuer,
            discoveryURL: discoveryURL, authorizationEndpoint: authorizationEndpoint, tokenEndpoint: tokenEndpoint,
            apiBaseURL: apiBaseURL, authenticationMethod: authenticationMethod, scopes: scopes, allowLinking: allowLinking,
            allowedEmailDomains: allowedEmailDomains, hostedDomain: hostedDomain, homeRealmDomains: homeRealmDomains,
            enabled: enabled, timeoutSeconds: timeoutSeconds, appleTeamID: appleTeamID, appleKeyID: appleKeyID,
            nativeClientIDs: nativeClientIDs, nativeSignIn: nativeSignIn, trustedCertificatesFile: trustedCertificatesFile)
    }
}
