import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE
import SignetWire

/// Native passkeys without a browser (docs/passkeys.md, "The JSON API"): Signet's WebAuthn
/// options in, the platform authenticator's answer out. Sign-in ends in an ordinary
/// authorization code bound to this sign-in's PKCE challenge, redeemed at `/token` with the
/// verifier (RFC 7636 §4.5); registration is authorized by the session's access token
/// (`passkeys:write`). First-party public clients only (Signet's rule).
extension SignInClient {
    /// Signet's native passkey endpoints, under the issuer.
    static let passkeyOptionsPath = "/passkeys/native/options"
    static let passkeyFinishPath = "/passkeys/native/finish"
    static let passkeyRegisterOptionsPath = "/passkeys/native/register/options"
    static let passkeyRegisterFinishPath = "/passkeys/native/register/finish"

    /// Signs in with a passkey: options from Signet for a new authorization request (new PKCE
    /// verifier, `state` and `nonce`, the configured scopes, resources and redirect URI), the
    /// assertion from `authenticator`, Signet's code for it, the code exchanged with the
    /// verifier, the ID token validated (`nonce` included), the tokens saved.
    ///
    /// - Parameters:
    ///   - authenticator: the platform's passkey API (`PlatformPasskeyAuthenticator` on Apple platforms).
    ///   - extraParameters: more authorization parameters (`acr_values`, `max_age`, …); the
    ///     protocol parameters cannot be overridden.
    /// - Throws: `.passkeyRefused` with Signet's OAuth error (a passkey that is not registered,
    ///   a replayed challenge, a client that may not use the API, rate limited, …);
    ///   `.cancelled` when the user dismissed the sheet; `.authenticatorFailed`; `.stateMismatch`
    ///   or `.issuerParameterMismatch` for an answer that is not this sign-in's; `.tokenError`,
    ///   `.invalidIDToken`, `.network` as for `completeSignIn`.
    public func signInWithPasskey(using authenticator: any PasskeyAuthenticator,
                                  extraParameters: [(String, String)] = []) async throws(SignInError) -> AuthState {
        let pkce = PKCEPair.generate()
        let now = clock()
        let pending = PendingSignIn(codeVerifier: pkce.verifier, state: RandomToken.make(), nonce: RandomToken.make(),
                                    redirectURI: configuration.redirectURI, createdAt: now,
                                    expiresAt: now.addingTimeInterval(configuration.pendingSignInLifetime))
        let form = Array(FormEncoding.encode(authorizationParameters(pending, codeChallenge: pkce.challenge,
                                                                      extraParameters: extraParameters)).utf8)
        let started = try await passkeyCall(Self.passkeyOptionsPath, body: form, type: "application/x-www-form-urlencoded")
        guard let publicKey = started["publicKey"] else { throw .invalidTokenResponse("passkey options without publicKey") }
        let options = try PasskeyAssertionOptions(json: publicKey)
        let assertion: PasskeyAssertion
        do { assertion = try await authenticator.assertion(for: options) } catch { throw Self.authenticatorError(error) }
        let finish = Self.passkeyFinishPath + "?" + QueryEncoding.encode([("client_id", configuration.clientID),
                                                                          ("code_challenge", pkce.challenge)])
        let answer = try await passkeyCall(finish, body: assertion.json.serialized(), type: "application/json")
        guard let code = answer["code"]?.stringValue, !code.isEmpty else { throw .missingCode }
        // The answer must be this sign-in's (RFC 6749 §10.12) from this issuer (RFC 9207 §2.4).
        guard answer["state"]?.stringValue == pending.state else { throw .stateMismatch }
        guard answer["iss"]?.stringValue == configuration.issuer else { throw .issuerParameterMismatch }
        let response: TokenResponse
        do {
            response = try await tokenClient.exchangeCode(code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier)
        } catch {
            throw Self.map(error)
        }
        let tokens = try await makeTokens(from: response, nonce: pending.nonce, previous: nil)
        try save(tokens, as: tokensKey)
        return await session(with: tokens)
    }

    /// Adds a passkey for the signed-in user of `session`: creation options from Signet with the
    /// session's access token (it must carry `passkeys:write`, so add it to the configuration's
    /// scopes), the new credential from `authenticator`, stored by Signet.
    ///
    /// - Throws: `.passkeyRefused` (`insufficient_scope` without `passkeys:write`,
    ///   `invalid_token`, `insufficient_user_authentication` when the session's sign-in is older
    ///   than 5 minutes or below the account's level: sign in again with `max_age=0` first,
    ///   `invalid_request` for a response that fails a check or a passkey that is registered
    ///   already); `.cancelled`; `.authenticatorFailed`; `.notSignedIn`.
    public func addPasskey(to session: AuthState, using authenticator: any PasskeyAuthenticator) async throws(SignInError) -> RegisteredPasskey {
        let accessToken = try await session.freshAccessToken()
        let started = try await passkeyCall(Self.passkeyRegisterOptionsPath, body: [], type: "application/x-www-form-urlencoded",
                                            accessToken: accessToken)
        guard let publicKey = started["publicKey"] else { throw .invalidTokenResponse("passkey options without publicKey") }
        let options = try PasskeyRegistrationOptions(json: publicKey)
        let attestation: PasskeyAttestation
        do { attestation = try await authenticator.attestation(for: options) } catch { throw Self.authenticatorError(error) }
        let stored = try await passkeyCall(Self.passkeyRegisterFinishPath, body: attestation.json.serialized(), type: "application/json",
                                           accessToken: accessToken)
        guard let id = stored["id"]?.stringValue, let name = stored["name"]?.stringValue else {
            throw .invalidTokenResponse("the registration answer has no id or name")
        }
        return RegisteredPasskey(id: id, name: name)
    }

    /// One JSON call to a passkey endpoint: the answer's object, or Signet's refusal
    /// (`{"error", "error_description"}`) as `.passkeyRefused`.
    func passkeyCall(_ path: String, body: [UInt8], type: String, accessToken: String? = nil) async throws(SignInError) -> [String: JSONValue] {
        guard let url = URL(string: configuration.issuer + path) else { throw .network("bad issuer URL") }
        var headers = ["Content-Type": type, "Accept": "application/json"]
        if let accessToken { headers["Authorization"] = "Bearer \(accessToken)" }
        let response: OutboundResponse
        do { response = try await http.send(method: "POST", url: url, body: body, headers: headers) } catch { throw .network("\(error)") }
        let object = try? JSONValue.parse(response.body, maximumDepth: 8).objectValue
        if response.status == 200, let object { return object }
        if let code = object?["error"]?.stringValue {
            throw .passkeyRefused(code: code, description: object?["error_description"]?.stringValue)
        }
        // RFC 6750 §3.1: a request without a usable token gets a bare 401 challenge.
        if response.status == 401 { throw .passkeyRefused(code: "invalid_token", description: nil) }
        throw .network("\(path) answered \(response.status)")
    }

    /// An authenticator's error as SignetKit reports it.
    static func authenticatorError(_ error: any Error) -> SignInError {
        if let error = error as? SignInError { return error }
        return .authenticatorFailed(String(describing: type(of: error)))
    }
}
