import SignetCore
import SignetHTTP
import SignetWire

extension SignetApplication {
    /// `POST /token`. The grants run inline on the HTTP thread (SQLite and signing take well under
    /// a millisecond); a grant that needs the network (the token exchange, native ID-token
    /// sign-in, may fetch a provider's keys) is suspended and awaited, so a slow provider never
    /// holds a thread. The endpoint decides which, from its registry.
    func tokenHandler(_ errors: ErrorRenderer) -> HTTPHandler {
        let endpoint = tokenEndpoint
        return .deferring(inline: { request in
            do throws(OAuthError) {
                guard let response = try endpoint.handleInline(try request.oauthParameters(), authorization: request.authorization) else {
                    return nil
                }
                return OAuthResponses.token(response)
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
