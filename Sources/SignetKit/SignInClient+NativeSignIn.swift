import Foundation
import SignetClientCore
import SignetJOSE
import SignetWire

/// Native ID-token sign-in (Google's Credential Manager, Apple's sheet): a nonce from Signet,
/// the provider's ID token bound to it, and an RFC 8693 token exchange at Signet's token
/// endpoint for Signet's own tokens. Public, first-party clients only (Signet's rule).
extension SignInClient {
    /// RFC 8693 §2.1's grant type.
    static let tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
    /// RFC 8693 §3: an OpenID Connect ID token as the subject token.
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
    /// RFC 8693 §3: what Signet issues.
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"

    /// Asks Signet's `native_nonce_endpoint` for a one-time nonce (`POST`, form `client_id`).
    ///
    /// - Throws: `.nativeSignInUnavailable` when discovery advertised no endpoint; `.tokenError`
    ///   with Signet's OAuth error (`unauthorized_client` for a client not allowed native
    ///   sign-in, `temporarily_unavailable` when rate limited); `.network`; `.invalidTokenResponse`
    ///   for an answer without a nonce.
    public func requestNativeNonce() async throws(SignInError) -> NativeSignInNonce {
        guard let endpoint = provider.nativeNonceEndpoint else { throw .nativeSignInUnavailable }
        // The endpoint reads `client_id` from the form: a public client's authentication (`.none`).
        let nonceClient = TokenClient(tokenEndpoint: endpoint, clientID: configuration.clientID, authentication: .none, http: http)
        let object: [String: JSONValue]
        do {
            (object, _) = try await nonceClient.requestJSON([])
        } catch {
            throw Self.map(error)
        }
        guard let value = object["nonce"]?.stringValue, !value.isEmpty,
              let seconds = object["expires_in"]?.intValue, seconds > 0 else {
            throw .invalidTokenResponse("the nonce endpoint's answer has no nonce or expires_in")
        }
        return NativeSignInNonce(value: value, expiresAt: clock().addingTimeInterval(TimeInterval(seconds)))
    }

    /// Exchanges a provider's ID token (bound to `nonce`) for Signet's tokens, validates Signet's
    /// ID token (signature, `iss`, `aud`, `exp`, `iat`), saves the tokens and returns the session.
    ///
    /// - Parameters:
    ///   - idToken: the ID token the platform's sheet returned (Google's `idToken`, Apple's
    ///     `identityToken` as UTF-8). Secret.
    ///   - connection: the id of Signet's connection for that provider (e.g. `google`, `apple`).
    ///   - nonce: the nonce from `requestNativeNonce()` given to the sheet. Its raw value is sent
    ///     as `nonce` (Apple's token carries only its hash; for Google Signet compares it too).
    ///   - scopes: the scopes to request; default the configuration's.
    ///   - resource: the API the access token is for (RFC 8707), if any.
    /// - Throws: `.pendingSignInExpired` for an expired nonce (checked here first, then by
    ///   Signet); `.tokenError` with Signet's refusal (`invalid_grant` for a token that fails a
    ///   check or a nonce that is unknown, used or another client's); `.invalidIDToken` and
    ///   `.invalidTokenResponse` for an answer that is not what RFC 8693 and OIDC promise.
    public func exchangeNativeIDToken(_ idToken: String, connection: String, nonce: NativeSignInNonce,
                                      scopes: [String]? = nil, resource: String? = nil) async throws(SignInError) -> AuthState {
        guard nonce.expiresAt > clock() else { throw .pendingSignInExpired }
        let scope = (scopes ?? configuration.scopes).joined(separator: " ")
        var pairs = [("grant_type", Self.tokenExchangeGrant), ("subject_token", idToken), ("subject_token_type", Self.idTokenType),
                     ("requested_token_type", Self.accessTokenType), ("connection", connection), ("nonce", nonce.value),
                     ("scope", scope)]
        if let resource { pairs.append(("resource", resource)) }
        let response: TokenResponse
        do {
            response = try await tokenClient.requestTokens(pairs)
        } catch {
            throw Self.map(error)
        }
        if let issued = response.issuedTokenType, issued != Self.accessTokenType {
            throw .invalidTokenResponse("issued_token_type \(issued) is not an access token")
        }
        guard response.idToken != nil || !scope.split(separator: " ").contains("openid") else {
            throw .invalidTokenResponse("no id_token in the response to an openid request")
        }
        // Signet's ID token from a token exchange carries no nonce (the nonce bound the provider's token).
        let tokens = try await makeTokens(from: response, nonce: nil, previous: nil)
        try save(tokens, as: tokensKey)
        return await session(with: tokens)
    }
}
