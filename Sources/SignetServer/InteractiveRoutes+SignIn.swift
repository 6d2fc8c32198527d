import SignetCore
import SignetHTTP
import SignetWire

extension InteractiveRoutes {
    /// The one message for every failed sign-in (no user enumeration).
    static let signInFailureMessage = "The email or password is incorrect."

    /// `GET /signin?request=…[&error=1]`: the email and password form.
    func signInPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let handle = request.query.first("request") else { return errors.requestGone() }
        let pending: PendingRequest
        do { pending = try flow.pending(handle: handle) } catch is FlowError {
            return errors.requestGone()
        } catch {
            return errors.internalError("sign-in page", error)
        }
        let browser = browserValue(request)
        let failed = request.query.first("error") != nil
        var body = ""
        body += "<p>to continue to <strong>\(HTMLPage.escape(pending.client.name))</strong></p>\n"
        if failed { body += "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(Self.signInFailureMessage))</p>\n" }
        body += federationButtons(handle: handle, browserValue: browser.value)
        body += "<form method=\"post\" action=\"\(Routes.signIn)\">\n"
        body += HTMLPage.hidden("request", handle) + "\n"
        body += HTMLPage.hidden("csrf", csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
        body += "<label for=\"email\">Email</label>\n"
        body += "<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"username\" required autofocus value=\"\(HTMLPage.escape(pending.request.loginHint ?? ""))\">\n"
        body += "<label for=\"password\">Password</label>\n"
        body += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\"\(federation.homeRealm.isEmpty ? " required" : "")>\n"
        body += "<button type=\"submit\">Sign in</button>\n</form>\n"
        var response = HTMLPage.response(title: "Sign in", body: body,
                                         formLeadsToClient: true)
        allowProviderLogos(&response)
        if let cookie = browser.cookie { response.setCookie(cookie) }
        return response
    }

    /// `POST /signin`: checks the CSRF field, the pending request and the credentials (on a
    /// blocking-work thread: Argon2id). Always answers 303: back to the form with one generic
    /// message on failure, or on to consent or the client on success.
    func signInSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = Self.formFields(request), let handle = try? form.single("request") else {
            return errors.malformedForm()
        }
        guard csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        do {
            let pending = try flow.pending(handle: handle)
            let email = (try? form.single("email")) ?? ""
            let password = (try? form.single("password")) ?? ""
            if let redirect = homeRealmRedirect(handle: handle, email: email, csrfField: try? form.single("csrf")) { return redirect }
            guard let user = try signIn.signIn(email: email, password: password, clientAddress: request.clientKey) else {
                return Self.local(Routes.signIn, [("request", handle), ("error", "1")])
            }
            // A new session on every sign-in (no fixation); the browser's previous one ends. A user
            // with a second factor gives it first (SecondFactorRoutes).
            return respond(try flow.signedIn(pending, user: user, amr: ["pwd"], previousSessionToken: sessionToken(request)), errors)
        } catch FlowError.requestNotFound {
            return errors.requestGone()
        } catch FlowError.clientGone {
            return errors.requestGone()
        } catch {
            return errors.internalError("sign-in", error)
        }
    }
}
