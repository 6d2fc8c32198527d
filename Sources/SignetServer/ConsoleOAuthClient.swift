import Foundation
import SignetCore
import SignetHTTP
import SignetWire

/// The console as a client of its own issuer: it redeems its authorization code at the token
/// endpoint, in process, and authenticates as `ConsoleClient` with the secret derived from the
/// master key (`client_secret_basic`, RFC 6749 §2.3.1). The secret stays inside: nothing else of
/// the console sees it.
struct ConsoleOAuthClient: Sendable {
    let tokenEndpoint: TokenEndpoint
    /// The `Authorization` header value: `Basic` with the client id and secret, form-encoded.
    private let authorization: String

    init(application: SignetApplication) {
        tokenEndpoint = application.tokenEndpoint
        let secret = ConsoleClient.secret(application.environment.masterKey)
        let credentials = FormEncoding.encodeComponent(ConsoleClient.id) + ":" + FormEncoding.encodeComponent(secret)
        authorization = "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    /// Redeems `code` with its PKCE `verifier` (RFC 6749 §4.1.3, RFC 7636 §4.5).
    func redeem(code: String, redirectURI: String, verifier: String) throws(OAuthError) -> TokenResponse {
        let parameters = RequestParameters([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                                            ("code_verifier", verifier)])
        return try tokenEndpoint.handle(parameters, authorization: authorization)
    }
}
