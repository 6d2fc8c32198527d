import SignetCore
import SignetHTTP
import SignetWire

extension InteractiveRoutes {
    /// `GET|POST /authorize` (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2). Errors before the
    /// client and its redirect URI are verified are a 400 page; after, a 303 to the redirect URI
    /// with `error`, `state` and `iss` (RFC 9207): `errors` (an `.authorization` renderer) decides.
    func authorize(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let parameters: RequestParameters
        do { parameters = try request.oauthParameters() } catch {
            return errors.render(error)
        }
        let checked: AuthorizationRequest, client: Client
        do { (checked, client) = try endpoint.validate(parameters) } catch {
            switch error {
            case .page(let oauthError), .redirect(let oauthError, _, _):
                // RFC 6749 §4.1.2.1: redirected only when the redirect URI was verified.
                return errors.render(oauthError, redirect: VerifiedRedirect(error))
            }
        }
        do {
            // A step-up's second-factor challenge belongs to this browser.
            let browser = browserValue(request)
            var response = respond(try flow.start(checked, client: client, sessionToken: sessionToken(request), browser: browser.value), errors)
            if let cookie = browser.cookie { response.setCookie(cookie) }
            return response
        } catch {
            return errors.render(.serverError(detail: "authorize: \(error)"), redirect: VerifiedRedirect(checked))
        }
    }
}
