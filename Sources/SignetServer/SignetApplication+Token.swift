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
        let metrics = self.metrics
        let known = Set(endpoint.grantTypes.map(\.rawValue))
        return .deferring(inline: { request in
            var parameters: RequestParameters?
            do throws(OAuthError) {
                parameters = try request.oauthParameters()
                guard let parsed = parameters, let response = try endpoint.handleInline(parsed, authorization: request.authorization) else {
                    return nil
                }
                metrics.token(grantType: Self.grantType(parameters), knownGrantTypes: known, result: "success")
                return OAuthResponses.token(response)
            } catch {
                metrics.token(grantType: Self.grantType(parameters), knownGrantTypes: known, result: error.code.rawValue)
                return errors.render(error)
            }
        }, suspended: { request in
            var parameters: RequestParameters?
            do throws(OAuthError) {
                parameters = try request.oauthParameters()
                guard let parsed = parameters else { throw OAuthError.invalidRequest("The request is malformed.") }
                let response = try await endpoint.handleAsync(parsed, authorization: request.authorization)
                metrics.token(grantType: Self.grantType(parameters), knownGrantTypes: known, result: "success")
                return OAuthResponses.token(response)
            } catch {
                metrics.token(grantType: Self.grantType(parameters), knownGrantTypes: known, result: error.code.rawValue)
                return errors.render(error)
            }
        })
    }

    /// The request's `grant_type`, for the metrics only (the endpoint checks it).
    private static func grantType(_ parameters: RequestParameters?) -> String? {
        guard let parameters else { return nil }
        return (try? parameters.single("grant_type")) ?? nil
    }
}
