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
        flowPage(request, errors, label: "consent page") { pending, session, hidden in
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
            body += "<form method=\"post\" action=\"\(Routes.consent)\">\n" + hidden
            body += "<button type=\"submit\" name=\"decision\" value=\"allow\">\(page.html(ConsentText.allow))</button>\n"
            body += "<button type=\"submit\" name=\"decision\" value=\"deny\" class=\"secondary\">\(page.html(ConsentText.deny))</button>\n</form>\n"
            return (page.text(ConsentText.title), body)
        }
    }

    /// `POST /consent`: Allow issues the code (and remembers the consent unless the client must
    /// always ask); Deny sends `access_denied` to the client.
    func consentSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        flowSubmit(request, errors, label: "consent") { form in
            switch try? form.single("decision") {
            case "allow": .chose(true)
            case "deny": .chose(false)
            default: .refused(errors.render(.invalidRequest("Choose Allow or Deny."), message: errors.page.text(ConsentText.chooseAllowOrDeny)))
            }
        } step: { pending, session, allow in
            try flow.decideConsent(pending, session: session, allow: allow)
        }
    }
}
