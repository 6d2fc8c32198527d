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

    /// Asks whether `token` is active and holds the answer to the JWT path's rules (RFC 7662 §2.2
    /// makes every claim optional, so none is taken on trust): `active` is true, `iss` is exactly
    /// `issuer`, `aud` contains `audience`, `exp` is present and `now` is before it (give or take
    /// `leeway`), and `sub` is present.
    func introspect(_ token: String, issuer: String, audience: String, realm: String?, now: Date,
                    leeway: TimeInterval) async throws(BearerError) -> ValidatedAccessToken {
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
        guard let iss = claims.iss, iss.utf8.elementsEqual(issuer.utf8) else {
            throw BearerError(.invalidToken, "the token is from another issuer", realm: realm)
        }
        guard claims.aud?.contains(audience) ?? false else {
            throw BearerError(.invalidToken, "the token is for another audience", realm: realm)
        }
        guard let exp = claims.exp, now < exp.addingTimeInterval(leeway) else {
            throw BearerError(.invalidToken, "the token has expired", realm: realm)
        }
        guard let subject = claims.sub, !subject.isEmpty else { throw BearerError(.invalidToken, "the token has no sub", realm: realm) }
        return ValidatedAccessToken(claims: claims)
    }
}
