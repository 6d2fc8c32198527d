import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

extension InteractiveRoutes {
    /// A browser's first factor through the sign-in gate (`AuthorizationFlow.signedIn`): the
    /// step it leads to with the new session's cookie, a second-factor challenge bound to this
    /// browser, or the page of a held sign-in (`onHeld`, by default the `sso_required` page or
    /// the address's verification). The browser's previous session ends when a new one starts.
    func signedIn(_ request: HTTPRequest, _ pending: PendingRequest, _ event: SignInEvent, offeringPasskey: Bool = false,
                  _ errors: ErrorRenderer, onHeld: ((SignInDecision) -> HTTPResponse)? = nil) throws -> HTTPResponse {
        let browser = browserValue(request)
        let outcome = try flow.signedIn(pending, event, browser: browser.value, previousSessionToken: sessionToken(request),
                                        offeringPasskey: offeringPasskey)
        var response: HTTPResponse
        switch outcome {
        case .session(let token, _, let step):
            response = respond(step, errors)
            response.setCookie(sessionCookie(token))
        case .step(let step):
            response = respond(step, errors)
        case .held(let decision):
            response = onHeld?(decision) ?? held(decision, event: event, handle: pending.handle, browserValue: browser.value, request, errors)
        }
        if let cookie = browser.cookie { response.setCookie(cookie) }
        return response
    }

    /// The page of a sign-in the gate held; nothing was signed in and the pending request stays.
    func held(_ decision: SignInDecision, event: SignInEvent, handle: String, browserValue: String, _ request: HTTPRequest,
              _ errors: ErrorRenderer) -> HTTPResponse {
        switch decision {
        case .organizationIdP(let realm):
            let way = event.way == .emailCode || event.way == .emailLink ? "otp" : event.way == .signUp ? "signup" : "pwd"
            return ssoRequiredRefusal(realm, email: event.user.email, handle: handle, browserValue: browserValue, way: way, errors)
        case .verificationRequired:
            return verificationRequired(event.user, request, handle: handle, errors)
        default:
            return Self.local(Routes.signIn, [("request", handle), ("error", "1")])
        }
    }

    /// The JSON answer of a sign-in the gate held, for the passkey script and the native APIs.
    func heldJSON(_ decision: SignInDecision, event: SignInEvent, client: String?, _ errors: ErrorRenderer) -> HTTPResponse {
        switch decision {
        case .organizationIdP(let realm):
            return ssoRequiredJSON(realm, email: event.user.email, client: client, way: "passkey", errors)
        case .verificationRequired:
            return errors.render(OAuthError(.accessDenied, "Confirm the account's email address first.")
                .telling(PasskeyErrorText.verifyEmailFirst), status: 403)
        default:
            return errors.render(OAuthError(.accessDenied, "This account cannot sign in."), status: 403)
        }
    }
}
