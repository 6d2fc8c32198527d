import SignetCore
import SignetHTTP
import SignetWire

extension InteractiveRoutes {
    /// The CSRF purpose of the logout confirmation form.
    static let logoutPurpose = "logout"

    /// `GET|POST /logout` (OpenID Connect RP-Initiated Logout 1.0). With a valid `id_token_hint`
    /// for the signed-in user (or no session at all), the session ends at once; otherwise the
    /// user confirms on a page first (a POST with a CSRF field). A `post_logout_redirect_uri` is
    /// used only when registered exactly for the client; anything wrong is an error page, never a
    /// redirect.
    func logout(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let parameters: RequestParameters
        if request.method == .POST {
            guard let form = Self.formFields(request) else { return errors.malformedForm() }
            parameters = form
        } else {
            do { parameters = try request.oauthParameters() } catch {
                return errors.render(error)
            }
        }
        let confirming = request.method == .POST && parameters.contains("csrf")
        if confirming, !csrfValid(request, field: try? parameters.single("csrf"), purpose: Self.logoutPurpose) {
            return errors.csrfFailure()
        }
        let checked: EndSessionRequest
        do { checked = try endSession.validate(parameters) } catch {
            // Never a redirect: a page route (the post-logout URI is not trusted before it is checked).
            return errors.render(error, title: error.code == .serverError ? nil : errors.page.text(LogoutText.cannotSignOut))
        }
        do {
            let session = try flow.sessions.active(token: sessionToken(request))
            if !confirming {
                let hintMatches = checked.hint.map { hint in session.map { $0.user.id == hint.subject } ?? true } ?? false
                if !hintMatches { return confirmationPage(request, checked, errors.page) }
            }
            try flow.sessions.end(token: sessionToken(request))
            if let session { server.audit("session_ended", actor: "user:\(session.user.id)", subject: session.user.id, client: checked.client?.id, reason: "logout") }
        } catch {
            return errors.internalError("logout", error)
        }
        var response: HTTPResponse
        if let target = checked.postLogoutRedirectURI {
            var pairs: [(String, String)] = []
            if let state = checked.state { pairs.append(("state", state)) }
            let separator = target.contains("?") ? "&" : "?"
            response = HTTPResponse.redirect(to: pairs.isEmpty ? target : target + separator + FormEncoding.encode(pairs), status: 303)
            HTMLPage.harden(&response)
        } else {
            let page = errors.page
            response = HTMLPage.response(page, title: page.text(LogoutText.signedOutTitle), body: "<p>\(page.html(LogoutText.signedOut))</p>")
        }
        response.setCookie(clearedCookie(sessionCookieName))
        return response
    }

    private func confirmationPage(_ request: HTTPRequest, _ checked: EndSessionRequest, _ page: PageContext) -> HTTPResponse {
        let browser = browserValue(request)
        var body = "<p>"
        if let client = checked.client {
            body += page.html(LogoutText.confirmReturning, HTMLPage.escape(page.brand.productName),
                              "<strong>\(HTMLPage.escape(client.name))</strong>")
        } else {
            body += page.html(LogoutText.confirm)
        }
        body += "</p>\n<form method=\"post\" action=\"\(Routes.endSession)\">\n"
        body += HTMLPage.hidden("csrf", csrf.token(browserValue: browser.value, purpose: Self.logoutPurpose)) + "\n"
        if let client = checked.client { body += HTMLPage.hidden("client_id", client.id) + "\n" }
        if let target = checked.postLogoutRedirectURI { body += HTMLPage.hidden("post_logout_redirect_uri", target) + "\n" }
        if let state = checked.state { body += HTMLPage.hidden("state", state) + "\n" }
        body += "<button type=\"submit\">\(page.html(LogoutText.submit))</button>\n</form>\n"
        return HTMLPage.response(page, title: page.text(LogoutText.confirmTitle), body: body, formLeadsToClient: true, cookie: browser.cookie)
    }
}
