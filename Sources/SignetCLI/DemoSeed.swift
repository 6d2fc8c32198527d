import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetServer
import SignetStore
import SignetWire

/// `signet serve --demo`: a demo user (with the console role `admin`, so the console opens with
/// the same account) and a demo native client, created once and printed with an authorization URL
/// a newcomer can open in a browser.
enum DemoSeed {
    static let clientID = "demo-app"
    static let email = "demo@example.com"
    static let password = "demo-password"
    static let loopbackCallback = "http://127.0.0.1/callback"
    static let appCallback = "com.example.app:/callback"

    /// Creates what is missing and returns the lines to print.
    static func seed(_ environment: ServerEnvironment) throws -> [String] {
        let now = environment.clock.now
        if try environment.storage.clients.client(id: clientID) == nil {
            try environment.storage.clients.upsertClient(ClientRecord(
                id: clientID, name: "Demo native app", isPublic: true, firstParty: true,
                redirectURIs: [loopbackCallback, appCallback],
                postLogoutRedirectURIs: ["http://127.0.0.1/logged-out", "com.example.app:/logged-out"],
                allowedScopes: ["openid", "profile", "email", "offline_access"],
                grantTypes: [GrantType.authorizationCode.rawValue, GrantType.refreshToken.rawValue],
                tokenEndpointAuthMethod: ClientAuthenticationMethod.none.rawValue,
                idTokenAlgorithm: environment.configuration.keys.idTokenAlgorithm.rawValue, createdAt: now, updatedAt: now,
                extra: Client.extra(mfaRequired: false, applicationType: .native)))
        }
        let users = environment.makeUserService()
        let user = try users.find(email) ?? users.create(email: email, name: "Demo User", password: password)
        if try environment.storage.operatorRoles.operatorRole(userID: user.id) == nil {
            try AdminService(environment: environment).setOperatorRole(user, "admin")
        }
        let verifier = Base64URL.encode(SecureRandom.bytes(32))
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let redirectURI = "http://127.0.0.1:8765/callback"
        let query: [(String, String)] = [
            ("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirectURI),
            ("scope", "openid profile email offline_access"), ("state", Base64URL.encode(SecureRandom.bytes(12))),
            ("nonce", Base64URL.encode(SecureRandom.bytes(12))), ("code_challenge", challenge),
            ("code_challenge_method", "S256"),
        ]
        let encoded = FormEncoding.encode(query)
        let issuer = environment.configuration.issuer
        var lines = [
            "demo: user \(email), password \(password)",
            "demo: public client \(clientID) (redirect URIs \(loopbackCallback) on any port, \(appCallback))",
            "demo: open \(issuer)/authorize?\(encoded)",
            "demo: then exchange the code from the address bar:",
            "demo:   curl -s \(issuer)/token -d grant_type=authorization_code -d client_id=\(clientID) -d redirect_uri=\(redirectURI) -d code_verifier=\(verifier) -d code=CODE",
        ]
        if !environment.configuration.admin.listen.isEmpty, let console = environment.configuration.admin.consoleBase {
            lines.append("demo: console \(console)/console: sign in as \(email) (operator role admin)")
        }
        return lines
    }
}
