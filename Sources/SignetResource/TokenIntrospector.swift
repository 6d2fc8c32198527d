import Foundation
import SignetClientCore
import SignetJOSE

/// The fallback for tokens that are not JWTs: RFC 7662 introspection at the issuer, with the
/// API's own client credentials (client_secret_basic).
public struct TokenIntrospector: Sendable {
    /// The introspection endpoint.
    public let endpoint: URL
    /// The API's client ID at the issuer.
    public let clientID: String
    let clientSecret: String
    let http: OutboundHTTP

    /// An introspector; the secret is sent with HTTP Basic authentication only.
    public init(endpoint: URL, clientID: String, clientSecret: String, http: OutboundHTTP = OutboundHTTP()) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.http = http
    }

    /// Asks whether `token` is active and checks `iss`, `aud` and `exp` of the answer.
    func introspect(_ token: String, issuer: String, audience: String, realm: String?) async throws(BearerError) -> ValidatedAccessToken {
        let response: OutboundResponse
        do {
            response = try await http.postForm(endpoint, [("token", token)],
                                               headers: ["Authorization": ClientAuthentication.basicAuthorization(clientID: clientID, secret: clientSecret),
                                                         "Accept": "application/json"]).requireSuccess()
        } catch {
            throw BearerError(.invalidToken, "the token could not be checked", realm: realm)
        }
        guard case .object(let object)? = try? JSONValue.parse(response.body), object["active"] == .bool(true) else {
            throw BearerError(.invalidToken, "the token is not active", realm: realm)
        }
        let claims = JWTClaims(object)
        if let iss = claims.iss, iss != issuer { throw BearerError(.invalidToken, "the token is from another issuer", realm: realm) }
        guard claims.aud?.contains(audience) ?? false else {
            throw BearerError(.invalidToken, "the token is for another audience", realm: realm)
        }
        if let exp = claims.exp, exp < Date() { throw BearerError(.invalidToken, "the token has expired", realm: realm) }
        return ValidatedAccessToken(claims: claims)
    }
}
