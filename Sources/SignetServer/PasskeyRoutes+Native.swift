import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetWire

extension Routes {
    /// Native passkey sign-in, step 1: the authorization request's parameters (form encoded, as
    /// for `/authorize`) in, `{"publicKey": PublicKeyCredentialRequestOptionsJSON}` out.
    public static let passkeyNativeOptions = "/passkeys/native/options"
    /// Step 2: `?client_id=…&code_challenge=…` and the platform's `AuthenticationResponseJSON`
    /// in, `{"code", "state", "iss", "redirect_uri"}` out: a code for `/token` with the verifier.
    public static let passkeyNativeFinish = "/passkeys/native/finish"
}

/// Passkeys from a native app without a browser (`ASAuthorizationPlatformPublicKeyCredentialProvider`,
/// Android Credential Manager): for first-party public clients only, the ceremony bound to the
/// client and its PKCE challenge, ending in an ordinary authorization code (RFC 6749 §4.1.2) that
/// the app redeems at `/token` with its code verifier (RFC 7636 §4.5).
extension PasskeyRoutes {
    /// The binding of a native ceremony: the client and the PKCE challenge it sent.
    func nativeBinding(clientID: String, codeChallenge: String) -> [UInt8] {
        ceremonies.binding("native", clientID, codeChallenge)
    }

    /// `POST /passkeys/native/options`.
    func nativeOptions(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse {
        let parameters = try request.oauthParameters()
        let checked: AuthorizationRequest, client: Client
        do { (checked, client) = try interactive.endpoint.validate(parameters) } catch {
            switch error {
            case .page(let oauthError), .redirect(let oauthError, _, _): throw oauthError
            }
        }
        // Only the operator's own apps: a third-party client must show the user who is asking
        // (consent in the browser), which an API call cannot.
        guard client.isPublic, client.isFirstParty else {
            throw OAuthError(.unauthorizedClient, "Native passkey sign-in is for first-party public clients.")
        }
        guard let challenge = checked.codeChallenge else { throw .invalidRequest("code_challenge is required.") }
        if let limited = try rateLimited(request, errors) { return limited }
        return try Self.mapped("native passkey options") {
            // No session is given: the request waits for the passkey as it would for the sign-in page.
            guard case .signIn(let handle) = try interactive.flow.start(checked, client: client, sessionToken: nil) else {
                throw OAuthError.invalidRequest("This request cannot be answered with a passkey (prompt=none?).")
            }
            let options = try ceremonies.assertionOptions(binding: nativeBinding(clientID: client.id, codeChallenge: challenge), context: handle)
            return OAuthResponses.json(["publicKey": options])
        }
    }

    /// `POST /passkeys/native/finish?client_id=…&code_challenge=…`.
    func nativeFinish(_ request: HTTPRequest, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse {
        let body = try Self.jsonBody(request)
        guard let clientID = try RequestParameters(request.query.pairs).single("client_id"),
              let challenge = try RequestParameters(request.query.pairs).single("code_challenge") else {
            throw .invalidRequest("client_id and code_challenge are required in the query.")
        }
        return try Self.mapped("native passkey sign-in") {
            let signedIn = try ceremonies.finishAssertion(body, binding: nativeBinding(clientID: clientID, codeChallenge: challenge))
            let pending = try interactive.flow.pending(handle: signedIn.context)
            guard pending.client.id == clientID else { throw OAuthError(.accessDenied, "The passkey challenge was issued to another client.") }
            // RFC 8176 §2, as on the web; the session exists only to carry `sid` and `auth_time`
            // into the code: no browser holds it, so a second factor or an enrolment needs the browser.
            let event = SignInEvent(user: signedIn.user, amr: signedIn.amr, way: .nativePasskey)
            let step: FlowStep
            switch try interactive.flow.signedIn(pending, event, browser: nil, previousSessionToken: nil) {
            case .session(_, _, let next): step = next
            case .step(let next): step = next
            case .held(let decision): return interactive.heldJSON(decision, event: event, client: clientID, errors)
            }
            switch step {
            case .code(let code, let redirectURI, let state):
                var answer: [String: JSONValue] = ["code": .string(code), "iss": .string(interactive.issuer), "redirect_uri": .string(redirectURI)]
                if let state { answer["state"] = .string(state) }
                return OAuthResponses.json(.object(answer))
            case .error(let error, _, _):
                throw error
            case .consent, .signIn, .secondFactor, .enrolSecondFactor, .passkeyOffer, .pickOrganization:
                throw OAuthError(.interactionRequired, "This request needs the browser.")
            }
        }
    }
}
