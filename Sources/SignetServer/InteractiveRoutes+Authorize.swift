import SignetCore
import SignetHTTP
import SignetWire

extension InteractiveRoutes {
    /// `GET|POST /authorize` (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2). Errors before the
    /// client and its redirect URI are verified are a 400 page; after, a 303 to the redirect URI
    /// with `error`, `state` and `iss` (RFC 9207).
    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let parameters: RequestParameters
        do { parameters = try request.oauthParameters() } catch {
            return HTMLPage.error(error.publicDescription ?? "The request is malformed.", title: "Invalid request")
        }
        let checked: AuthorizationRequest, client: Client
        do { (checked, client) = try endpoint.validate(parameters) } catch {
            switch error {
            case .page(let oauthError):
                if oauthError.code == .serverError { return Self.internalError("authorize", oauthError) }
                return HTMLPage.error(oauthError.publicDescription ?? "The request is invalid.", title: "Invalid request")
            case .redirect(let oauthError, let redirectURI, let state):
                var response = OAuthResponses.redirectError(oauthError, redirectURI: redirectURI, state: state, issuer: issuer)
                HTMLPage.harden(&response)
                return response
            }
        }
        do {
            return respond(try flow.start(checked, client: client, sessionToken: sessionToken(request)))
        } catch {
            Log.error("authorize: \(error)")
            var response = OAuthResponses.redirectError(OAuthError(.serverError, "The server could not complete the request."),
                                                        redirectURI: checked.redirectURI, state: checked.state, issuer: issuer)
            HTMLPage.harden(&response)
            return response
        }
    }
}
