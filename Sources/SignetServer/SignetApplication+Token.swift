import SignetCore
import SignetHTTP
import SignetWire

extension SignetApplication {
    /// `POST /token`. Async: the token exchange (native ID-token sign-in) may fetch a provider's
    /// keys; the other grants run straight through (SQLite and signing take well under a millisecond).
    func installTokenRoutes(_ router: Router) {
        let nativeSignIn = NativeSignInVerifier(connections: environment.configuration.connections.map(\.connection),
                                                clock: environment.clock)
        let endpoint = TokenEndpoint(server: authorizationServer, nativeSignIn: nativeSignIn)
        router.post(Routes.token, .async { request in
            do throws(OAuthError) {
                let parameters = try request.oauthParameters()
                return OAuthResponses.token(try await endpoint.handleAsync(parameters, authorization: request.authorization))
            } catch {
                return OAuthResponses.tokenError(error)
            }
        })
    }
}
