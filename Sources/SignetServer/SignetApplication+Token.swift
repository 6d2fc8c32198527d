import SignetCore
import SignetHTTP
import SignetWire

extension SignetApplication {
    /// `POST /token`. Runs inline: SQLite and signing take well under a millisecond.
    func installTokenRoutes(_ router: Router) {
        let endpoint = TokenEndpoint(server: authorizationServer)
        router.post(Routes.token, .sync { request in
            do throws(OAuthError) {
                let parameters = try request.oauthParameters()
                return OAuthResponses.token(try endpoint.handle(parameters, authorization: request.authorization))
            } catch {
                return OAuthResponses.tokenError(error)
            }
        })
    }
}
