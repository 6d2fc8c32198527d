import SignetFederation
import SignetHTTP

extension InteractiveRoutes {
    /// The provider buttons of the sign-in page: one link per enabled connection to
    /// `/federation/start` carrying the pending request, the connection and the CSRF field (links,
    /// not forms, so the redirect to the provider is not subject to the page's `form-action`).
    func federationButtons(handle: String, browserValue: String, page: PageContext) -> String {
        let enabled = federation.enabled
        guard !enabled.isEmpty else { return "" }
        let token = csrf.token(browserValue: browserValue, purpose: handle)
        var html = "<div class=\"providers\">\n"
        for connection in enabled {
            let href = Routes.federationStart + "?" + FormEncoding.encode([("request", handle), ("connection", connection.id), ("csrf", token)])
            html += "<a class=\"provider\" href=\"\(HTMLPage.escape(href))\">"
            if let logo = connection.logoURL, ConfigSection.urlProblem(logo) == nil {
                html += "<img src=\"\(HTMLPage.escape(logo))\" alt=\"\" width=\"20\" height=\"20\"> "
            }
            html += page.html(SignInText.continueWith, HTMLPage.escape(connection.displayName)) + "</a>\n"
        }
        html += "</div>\n<p class=\"muted\">\(page.html(SignInText.orWithPassword))</p>\n"
        return html
    }

    /// Home-realm discovery: when the typed email's domain belongs to an enabled connection, the
    /// 303 that starts that provider (the password is ignored); nil for every other domain.
    func homeRealmRedirect(handle: String, email: String, csrfField: String?) -> HTTPResponse? {
        guard let connectionID = federation.homeRealm.connectionID(forEmail: email), let csrfField else { return nil }
        return Self.local(Routes.federationStart, [("request", handle), ("connection", connectionID), ("csrf", csrfField),
                                                   ("login_hint", email.trimmingCharacters(in: .whitespacesAndNewlines))])
    }

    /// The CSP `img-src` sources of the configured provider logos (their origins).
    func providerLogoSources() -> [String] {
        var sources: [String] = []
        for connection in federation.enabled {
            if let logo = connection.logoURL, ConfigSection.urlProblem(logo) == nil, let source = HTMLPage.cspSource(for: logo),
               !sources.contains(source) { sources.append(source) }
        }
        return sources
    }
}
