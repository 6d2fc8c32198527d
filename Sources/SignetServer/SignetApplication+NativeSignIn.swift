import SignetCore
import SignetHTTP
import SignetJOSE
import SignetWire

extension SignetApplication {
    /// `POST /native/nonce`: a one-time nonce for native ID-token sign-in (see
    /// docs/guides/native-id-token.md). Form body: `client_id`. Answers
    /// `{"nonce": "sgn_…", "expires_in": 300}`, or 429 with `Retry-After`.
    func installNativeSignInRoutes(_ router: Router) {
        let endpoint = NativeNonceEndpoint(server: authorizationServer)
        router.post(Routes.nativeNonce, .sync { request in
            do throws(OAuthError) {
                let parameters = try request.oauthParameters()
                switch try endpoint.handle(parameters, clientAddress: request.clientKey) {
                case .issued(let nonce, let expiresIn):
                    return OAuthResponses.json(["nonce": .string(nonce), "expires_in": .int(Int64(expiresIn))])
                case .rateLimited(let retryAfter):
                    var response = OAuthResponses.json(
                        ErrorBody.object(OAuthError(.temporarilyUnavailable, "Too many requests; try again later.")), status: 429)
                    response.headers.set("Retry-After", String(retryAfter))
                    return response
                }
            } catch {
                return OAuthResponses.tokenError(error)
            }
        })
    }
}
