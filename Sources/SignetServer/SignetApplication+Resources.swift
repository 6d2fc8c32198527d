import SignetCore
import SignetHTTP
import SignetJOSE
import SignetWire

extension SignetApplication {
    /// `/userinfo` (GET and POST): one signature check and one indexed read, inline.
    func userinfoHandler(_ errors: ErrorRenderer) -> HTTPHandler {
        let userinfo = UserInfoEndpoint(server: authorizationServer)
        return errors.sync { request throws(OAuthError) in
            guard let token = try Self.bearerToken(of: request) else { return errors.missingBearerToken() }
            return OAuthResponses.json(try userinfo.claims(accessToken: token))
        }
    }

    /// `POST /revoke` (RFC 7009), inline.
    func revocationHandler(_ errors: ErrorRenderer) -> HTTPHandler {
        let revocation = RevocationEndpoint(server: authorizationServer)
        return errors.sync { request throws(OAuthError) in
            try revocation.handle(try request.oauthParameters(), authorization: request.authorization)
            // RFC 7009 §2.2: 200 and no content, whatever the token was.
            var response = HTTPResponse(status: 200)
            response.headers.set("Cache-Control", "no-store")
            return response
        }
    }

    /// `POST /introspect` (RFC 7662), inline.
    func introspectionHandler(_ errors: ErrorRenderer) -> HTTPHandler {
        let introspection = IntrospectionEndpoint(server: authorizationServer)
        return errors.sync { request throws(OAuthError) in
            OAuthResponses.json(try introspection.handle(try request.oauthParameters(), authorization: request.authorization))
        }
    }

    /// RFC 6750 §2: the token from the `Authorization: Bearer` header, or on POST from an
    /// `access_token` form parameter (§2.2). Never from the query (§2.3 is not supported: URLs
    /// end up in logs). Two methods at once, a repeated parameter or a token in the query is
    /// `invalid_request`; no token at all is nil (a bare challenge).
    static func bearerToken(of request: HTTPRequest) throws(OAuthError) -> String? {
        if request.query.first("access_token") != nil {
            throw OAuthError.invalidRequest("Send the access token in the Authorization header, not in the URL.")
        }
        let header = request.bearerToken
        var body: String?
        if request.method == .POST, let type = request.headers["Content-Type"],
           type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            let form: FormFields
            do { form = try request.form() } catch { throw OAuthError.invalidRequest("The request body is not valid form encoding.") }
            do { body = try form.single("access_token") } catch {
                throw OAuthError.invalidRequest("The access_token parameter is repeated.")
            }
            if body?.isEmpty == true { body = nil }
        }
        if header != nil && body != nil {
            throw OAuthError.invalidRequest("Use one method to send the access token, not two.")
        }
        return header ?? body
    }
}
