import Foundation
import SignetStore
import SignetWire

/// The account page's own client: when `/account` is opened without a session, the browser is
/// sent through the ordinary `/authorize` flow for this built-in, first-party, public client, so
/// the account page signs in exactly as every app does (password, providers, any second factor)
/// and comes back to `{issuer}/account/callback`. It is never stored and its id is reserved.
public enum AccountClient {
    /// The reserved client id.
    public static let id = "signet-account"
    /// Its redirect URI's path.
    public static let callbackPath = "/account/callback"
    /// Its second redirect URI's path: a sign-in started from an invitation's page comes back there.
    public static let invitationCallbackPath = "/invitation/callback"

    /// The client for `issuer`, or nil when the issuer does not make a registrable redirect URI.
    public static func client(issuer: String) -> Client? {
        let record = ClientRecord(id: id, name: "Your account", isPublic: true, firstParty: true,
                                  redirectURIs: [issuer + callbackPath, issuer + invitationCallbackPath], allowedScopes: [Scope.openID],
                                  grantTypes: [GrantType.authorizationCode.rawValue], tokenEndpointAuthMethod: "none",
                                  createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        return try? Client(record: record)
    }
}
