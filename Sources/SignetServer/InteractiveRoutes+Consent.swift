import SignetCore
import SignetHTTP
import SignetWire

extension InteractiveRoutes {
    /// Plain words for the standard scopes; other scopes are shown by name.
    static func describe(scope: String, _ page: PageContext) -> String {
        switch scope {
        case Scope.openID: page.text(ConsentText.scopeOpenID)
        case Scope.profile: page.text(ConsentText.scopeProfile)
        case Scope.email: page.text(ConsentText.scopeEmail)
        case Scope.offlineAccess: page.text(ConsentText.scopeOfflineAccess)
        case Scope.organization: page.text(ConsentText.scopeOrganization)
        default: page.text(ConsentText.scopeOther, scope)
        }
    }

    /// `GET /consent?request=…`: who is asking for what, with Allow and Deny.
    func consentPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let handle = request.query.first("request") else { return errors.requestGone() }
        return errors.continuing("consent page") {
            let pending = try flow.pending(handle: handle)
            guard let session = try flow.sessions.active(token: sessionToken(request)),
                  flow.satisfies(pending.request, session: session, authenticatedSince: pending.createdAt),
                  flow.meetsLevel(pending, session: session) else {
                return Self.local(Routes.signIn, [("request", handle)])
            }
            let browser = browserValue(request)
            let page = errors.page
            var body = "<p>\(page.html(ConsentText.wouldLike, "<strong>\(HTMLPage.escape(pending.client.name))</strong>"))</p>\n<ul>\n"
            for scope in pending.request.parsedScope.tokens {
                body += "<li>\(HTMLPage.escape(Self.describe(scope: scope, page)))</li>\n"
            }
            body += "</ul>\n"
            // RFC 8707: the user sees which API the access would be for.
            let resources = pending.request.resources
            if !resources.isEmpty {
                body += "<p>\(page.html(ConsentText.accessFor))</p>\n<ul>\n"
                for resource in resources {
                    body += "<li><code class=\"resource\">\(HTMLPage.escape(resource))</code></li>\n"
                }
                body += "</ul>\n"
            }
            body += "<p class=\"muted\">\(page.html(ConsentText.signedInAs, HTMLPage.escape(session.user.email)))</p>\n"
            body += "<form method=\"post\" action=\"\(Routes.consent)\">\n"
            body += HTMLPage.hidden("request", handle) + "\n"
            body += HTMLPage.hidden("csrf", csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
            body += "<button type=\"submit\" name=\"decision\" value=\"allow\">\(page.html(ConsentText.allow))</button>\n"
            body += "<button type=\"submit\" name=\"decision\" value=\"deny\" class=\"secondary\">\(page.html(ConsentText.deny))</button>\n</form>\n"
            return HTMLPage.response(page, title: page.text(ConsentText.title), body: body, formLeadsToClient: true, cookie: browser.cookie)
        }
    }

    /// `POST /consent`: Allow issues the code (and remembers the consent unless the client must
    /// always ask); Deny sends `access_denied` to the client.
    func consentSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = Self.formFields(request), let handle = try? form.single("request") else {
            return errors.malformedForm()
        }
        guard csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        let allow: Bool
        switch try? form.single("decision") {
        case "allow": allow = true
        case "deny": allow = false
        default: return errors.render(.invalidRequest("Choose Allow or Deny."), message: errors.page.text(ConsentText.chooseAllowOrDeny))
        }
        return errors.continuing("consent") {
            let pending = try flow.pending(handle: handle)
            let session = try flow.sessions.active(token: sessionToken(request))
            return respond(try flow.decideConsent(pending, session: session, allow: allow), errors)
        }
    }
}
