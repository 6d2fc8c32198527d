import Foundation
import SignetStore
import SignetWire

/// The console's own client: the console on the admin listener signs its operators in through
/// the ordinary `/authorize` flow of the public issuer (password, providers, second factor) as
/// this built-in, first-party, confidential client, with PKCE, and redeems the code itself. Its
/// redirect URI is on the admin listener (`{consoleURL}/console/callback`); its secret is derived
/// from the master key, so every node sharing the key agrees on it. It is never stored and its id
/// is reserved.
public enum ConsoleClient {
    /// The reserved client id.
    public static let id = "signet-console"
    /// Its redirect URI's path, on the admin listener.
    public static let callbackPath = "/console/callback"
    /// How long the console's access token lasts; a console session (`ConsoleSessions`) lasts as long.
    public static let tokenLifetime = 900

    /// The client secret: derived from the master key (`MasterKey.consoleClientSecret`).
    public static func secret(_ masterKey: MasterKey) -> String { masterKey.consoleClientSecret }

    /// The client for a console at `consoleURL` (no trailing slash) asking for `scopes` and the
    /// admin audience `resource`, or nil when the URL makes no registrable redirect URI.
    public static func client(consoleURL: String, scopes: [String], resource: String, secretHash: [UInt8]) -> Client? {
        let record = ClientRecord(id: id, name: "Signet console", secretHash: secretHash, isPublic: false, firstParty: true,
                                  redirectURIs: [consoleURL + callbackPath], allowedScopes: [Scope.openID] + scopes,
                                  grantTypes: [GrantType.authorizationCode.rawValue], tokenEndpointAuthMethod: "client_secret_basic",
                                  lifetimes: ClientTokenLifetimes(accessToken: tokenLifetime), allowedResources: [resource],
                                  createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        return try? Client(record: record)
    }
}
