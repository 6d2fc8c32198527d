import SignetCore
import SignetHTTP
import SignetJOSE
import SignetWire

extension SignetApplication {
    /// `POST /native/nonce`: a one-time nonce for native ID-token sign-in (see
    /// docs/guides/native-id-token.md). Form body: `client_id`. Answers
    /// `{"nonce": "sgn_…", "expires_in": 300}`, or 429 with `Retry-After`.
    func nativeNonceHandler(_ errors: ErrorRenderer) -> HTTPHandler {
        let endpoint = NativeNonceEndpoint(server: authorizationServer)
        return .sync { request in
            do throws(OAuthError) {
                let parameters = try request.oauthParameters()
                switch try endpoint.handle(parameters, clientAddress: request.clientKey) {
                case .issued(let nonce, let expiresIn):
                    return OAuthResponses.json(["nonce": .string(nonce), "expires_in": .int(Int64(expiresIn))])
                case .rateLimited(let retryAfter):
                    // RFC 6585 §4: 429 with how long to wait.
                    return errors.render(OAuthError(.temporarilyUnavailable, "Too many requests; try again later."), status: 429,
                                         retryAfter: retryAfter)
                }
            } catch {
                return errors.render(error)
            }
        }
    }
}
