import SignetCore
import SignetHTTP
import SignetWire

extension SignetApplication {
    /// `POST /token`. The grants run inline on the HTTP thread (SQLite and signing take well under
    /// a millisecond); only the token exchange (native ID-token sign-in), which may fetch a
    /// provider's keys, is suspended and awaited, so a slow provider never holds a thread.
    func tokenHandler(_ errors: ErrorRenderer) -> HTTPHandler {
        let nativeSignIn = NativeSignInVerifier(connections: environment.configuration.connections.map(\.connection),
                                                clock: environment.clock)
        let endpoint = TokenEndpoint(server: authorizationServer, nativeSignIn: nativeSignIn)
        return .deferring(inline: { request in
            do throws(OAuthError) {
                let parameters = try request.oauthParameters()
                if TokenEndpoint.isTokenExchange(parameters) { return nil }
                return OAuthResponses.token(try endpoint.handle(parameters, authorization: request.authorization))
            } catch {
                return errors.render(error)
            }
        }, suspended: { request in
            do throws(OAuthError) {
                let parameters = try request.oauthParameters()
                return OAuthResponses.token(try await endpoint.handleAsync(parameters, authorization: request.authorization))
            } catch {
                return errors.render(error)
            }
        })
    }
}
