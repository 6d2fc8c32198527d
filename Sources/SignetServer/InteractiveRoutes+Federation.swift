import SignetClientCore
import SignetCore
import SignetFederation
import SignetHTTP
import SignetWire

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
            if let logo = connection.logoURL, ProviderURLRule.problem(logo) == nil {
                html += "<img src=\"\(HTMLPage.escape(logo))\" alt=\"\" width=\"20\" height=\"20\"> "
            }
            html += page.html(SignInText.continueWith, HTMLPage.escape(connection.displayName)) + "</a>\n"
        }
        html += "</div>\n<p class=\"muted\">\(page.html(SignInText.orWithPassword))</p>\n"
        return html
    }

    /// Home-realm discovery: the 303 that starts `connectionID` (the connection the typed email's
    /// domain belongs to, `DomainGovernance.decision`) with the email as login hint; nil without a CSRF field.
    func homeRealmRedirect(handle: String, email: String, csrfField: String?, connectionID: String) -> HTTPResponse? {
        guard let csrfField else { return nil }
        return Self.local(Routes.federationStart, [("request", handle), ("connection", connectionID), ("csrf", csrfField),
                                                   ("login_hint", email.trimmingCharacters(in: .whitespacesAndNewlines))])
    }

    /// The 403 page of an `sso_required` domain for a local way (`way`: `pwd`, `signup`, `otp`), with a
    /// link on to the domain's connection when it is available; nothing is created or checked.
    func ssoRequiredRefusal(_ realm: HomeRealmDecision, email: String, handle: String?, browserValue: String?, way: String,
                            _ errors: ErrorRenderer) -> HTTPResponse {
        let governing = realm.owningConnectionID ?? ""
        server.auditor.record("sign_in_refused", method: way, reason: "sso_required",
                              detail: ["connection": .string(governing), "domain": .string(DomainGovernance.domain(email))])
        var continueHref: String?
        if let connectionID = realm.connectionID, let handle, let browserValue {
            let csrfField = csrf.token(browserValue: browserValue, purpose: handle)
            continueHref = Routes.federationStart + "?" + FormEncoding.encode([
                ("request", handle), ("connection", connectionID), ("csrf", csrfField),
                ("login_hint", email.trimmingCharacters(in: .whitespacesAndNewlines))])
        }
        let reason: DomainText = realm.connectionID == nil ? .connectionUnavailable
            : way == "signup" ? .signUpRefused : way == "otp" ? .codeRefused : .passwordRefused
        return errors.ssoRequired(reason, domain: DomainGovernance.domain(email), connection: domains.connectionName(governing),
                                  continueHref: continueHref,
                                  backHref: handle.map { Routes.signIn + "?" + FormEncoding.encode([("request", $0)]) })
    }

    /// The JSON answer of an `sso_required` domain for a local way of the JSON APIs (`way`:
    /// `passkey`, `headless`): 403 `access_denied`, audited as the pages' refusal is; nothing is
    /// signed in. The description names the domain and the connection (they are not secret: the
    /// sign-in page says the same).
    func ssoRequiredJSON(_ realm: HomeRealmDecision, email: String, client: String?, way: String, _ errors: ErrorRenderer) -> HTTPResponse {
        let governing = realm.owningConnectionID ?? ""
        let domain = DomainGovernance.domain(email)
        server.auditor.record("sign_in_refused", client: client, method: way, reason: "sso_required",
                              detail: ["connection": .string(governing), "domain": .string(domain)])
        let description = realm.connectionID == nil
            ? "Accounts at \(domain) sign in through their organization's connection, which is not available."
            : "Accounts at \(domain) sign in through \(domains.connectionName(governing)), not with a \(way == "passkey" ? "passkey" : "local credential")."
        return errors.render(OAuthError(.accessDenied, description), status: 403)
    }

    /// The CSP `img-src` sources of the configured provider logos (their origins).
    func providerLogoSources() -> [String] {
        var sources: [String] = []
        for connection in federation.enabled {
            if let logo = connection.logoURL, ProviderURLRule.problem(logo) == nil, let source = HTMLPage.cspSource(for: logo),
               !sources.contains(source) { sources.append(source) }
        }
        return sources
    }
}
