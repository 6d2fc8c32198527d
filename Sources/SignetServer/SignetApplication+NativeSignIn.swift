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
        return errors.sync { request throws(OAuthError) in
            switch try endpoint.handle(try request.oauthParameters(), clientAddress: request.clientKey) {
            case .issued(let nonce, let expiresIn):
                return OAuthResponses.json(["nonce": .string(nonce), "expires_in": .int(Int64(expiresIn))])
            case .rateLimited(let retryAfter):
                // RFC 6585 §4: 429 with how long to wait.
                return errors.render(OAuthError(.temporarilyUnavailable, "Too many requests; try again later."), status: 429,
                                     retryAfter: retryAfter)
            }
        }
    }
}
