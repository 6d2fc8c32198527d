import SignetCore
import SignetHTTP
import SignetWire

extension InteractiveRoutes {
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
        let page = errors.page
        // After a failed attempt, the email typed then (from its sealed cookie); else the login hint.
        let email = typedEmail.email(request, handle: handle) ?? pending.request.loginHint ?? ""
        var body = ""
        body += "<p>\(page.html(SignInText.continueTo, "<strong>\(HTMLPage.escape(pending.client.name))</strong>"))</p>\n"
        if failed { body += "<p class=\"error\" role=\"alert\">\(page.html(SignInText.failed))</p>\n" }
        body += federationButtons(handle: handle, browserValue: browser.value, page: page)
        body += passkeySignInSection(handle: handle, browserValue: browser.value, page: page)
        body += "<form method=\"post\" action=\"\(Routes.signIn)\">\n"
        body += HTMLPage.hidden("request", handle) + "\n"
        body += HTMLPage.hidden("csrf", csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
        body += "<label for=\"email\">\(page.html(SignInText.email))</label>\n"
        body += "<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"username webauthn\" required\(email.isEmpty ? " autofocus" : "") value=\"\(HTMLPage.escape(email))\">\n"
        body += "<label for=\"password\">\(page.html(SignInText.password))</label>\n"
        body += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\"\(federation.enabled.isEmpty ? " required" : "")\(email.isEmpty ? "" : " autofocus")>\n"
        body += "<button type=\"submit\">\(page.html(SignInText.submit))</button>\n</form>\n"
        body += SelfServiceRoutes.signInLinks(handle: handle, client: pending.client, accounts: accounts, mail: mailer.isMailConfigured, page: page)
        var response = HTMLPage.response(page, title: page.text(SignInText.title), body: body, formLeadsToClient: true,
                                         imageSources: providerLogoSources(), cookie: browser.cookie)
        PasskeyScript.allow(&response)
        return response
    }

    /// `POST /signin`: checks the CSRF field, the pending request and the credentials (on a
    /// blocking-work thread: Argon2id). Always answers 303: back to the form with one generic
    /// message on failure (the typed email kept in a sealed cookie, `SignInEmail`, never in the
    /// URL), or on to consent or the client on success.
    func signInSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = Self.formFields(request), let handle = try? form.single("request") else {
            return errors.malformedForm()
        }
        guard csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        do {
            let pending = try flow.pending(handle: handle)
            let email = (try? form.single("email")) ?? ""
            let password = (try? form.single("password")) ?? ""
            // Home-realm discovery before any local choice: a governed or configured domain goes
            // to its connection; an `sso_required` one never reaches the password check.
            let realm = try domains.decision(forEmail: email)
            if realm.ssoRequired && (!password.isEmpty || realm.connectionID == nil) {
                return ssoRequiredRefusal(realm, email: email, handle: handle, browserValue: request.cookies[csrfCookieName], way: "pwd", errors)
            }
            if let connectionID = realm.connectionID,
               let redirect = homeRealmRedirect(handle: handle, email: email, csrfField: try? form.single("csrf"), connectionID: connectionID) {
                return redirect
            }
            guard let user = try signIn.signIn(email: email, password: password, clientAddress: request.clientKey) else {
                var again = Self.local(Routes.signIn, [("request", handle), ("error", "1")])
                if let cookie = typedEmail.cookie(keeping: email, handle: handle) { again.setCookie(cookie) }
                return again
            }
            // The gate: a new session on every sign-in (no fixation; the browser's previous one
            // ends), a second factor first for a user who has one (SecondFactorRoutes), an
            // unconfirmed account held for its verification; a browser that can make passkeys is
            // offered one before going on (PasskeyRoutes).
            var response = try signedIn(request, pending, SignInEvent(user: user, amr: ["pwd"], way: .password),
                                        offeringPasskey: passkeyOfferWanted(request, form, user: user), errors)
            if request.cookies[typedEmail.cookieName] != nil { response.setCookie(clearedCookie(typedEmail.cookieName)) }
            return response
        } catch FlowError.requestNotFound {
            return errors.requestGone()
        } catch FlowError.clientGone {
            return errors.requestGone()
        } catch {
            return errors.internalError("sign-in", error)
        }
    }
}
