import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetStore
import SignetWire

/// The developer portal's application types (`ApplicationType`, stored with the client), each
/// one way to register a client.
extension ApplicationType {
    /// The stored type of a client (inferred for one stored before types were).
    init(_ record: ClientRecord) { self = Client.ExtraSettings(record).applicationType }

    var label: ConsoleText {
        switch self {
        case .native: .typeNative
        case .web: .typeWeb
        case .service: .typeService
        case .api: .typeAPI
        }
    }

    var hint: ConsoleText {
        switch self {
        case .native: .typeNativeHint
        case .web: .typeWebHint
        case .service: .typeServiceHint
        case .api: .typeAPIHint
        }
    }

    /// The registration of an app of this type named `name` with `redirects`.
    func spec(id: String, name: String, redirects: [String]) -> ClientSpec {
        var spec = switch self {
        case .native: ClientSpec(id: id, name: name, isPublic: true, redirectURIs: redirects)
        case .web: ClientSpec(id: id, name: name, isPublic: false, redirectURIs: redirects)
        case .service: ClientSpec(id: id, name: name, isPublic: false, grantTypes: [GrantType.clientCredentials.rawValue])
        case .api: ClientSpec(id: id, name: name, isPublic: false, scope: "", grantTypes: [GrantType.clientCredentials.rawValue])
        }
        spec.applicationType = self
        return spec
    }

    /// The redirect-URI rules of this type, shown beside the field: RFC 8252's for a native app,
    /// a web app's own; nil for the types that take none.
    func redirectRules(_ page: PageContext, hidden: Bool = false) -> String? {
        let heading: ConsoleText, rules: [ConsoleText]
        switch self {
        case .native: (heading, rules) = (.rulesHeading, [.rulePrivateUse, .ruleClaimed, .ruleLoopback, .ruleExact, .ruleNoSecret])
        case .web: (heading, rules) = (.rulesHeadingWeb, [.ruleWebHTTPS, .ruleWebNoPrivateUse, .ruleExact])
        case .service, .api: return nil
        }
        return "<div data-rules=\"\(rawValue)\"\(hidden ? " hidden" : "")>\n<p><strong>\(esc(page.text(heading)))</strong></p>\n<ul>\n"
            + rules.map { "<li>\(esc(page.text($0)))</li>\n" }.joined() + "</ul>\n</div>\n"
    }
}

extension ConsoleRoutes {
    // MARK: list

    /// `GET /console/apps`: every app with its type.
    func appsPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            var body = Self.notice(request, page)
            if op.may("createClient") {
                body += "<p><a class=\"button\" href=\"\(Self.newApp)\">\(esc(page.text(ConsoleText.newApp)))</a></p>\n"
            }
            let records = try environment.storage.clients.allClients().sorted { $0.id < $1.id }
            if records.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noApps)))</p>\n" }
            else {
                body += "<div class=\"table\"><table>\n<thead><tr><th>\(esc(page.text(ConsoleText.appName)))</th><th>\(esc(page.text(ConsoleText.clientID)))</th><th>\(esc(page.text(ConsoleText.appType)))</th></tr></thead>\n<tbody>\n"
                for record in records {
                    body += "<tr><td><a href=\"\(esc(Self.path(Self.app, record.id)))\">\(esc(record.name))</a></td><td><code>\(esc(record.id))</code></td>"
                        + "<td>\(esc(page.text(ApplicationType(record).label)))</td></tr>\n"
                }
                body += "</tbody></table></div>\n"
            }
            return render(op, page, section: .apps, title: page.text(ConsoleText.appsTitle), body: body)
        }
    }

    // MARK: create

    /// `GET /console/apps/new`: the registration form.
    func newAppPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let type = request.query.first("type").flatMap(ApplicationType.init(rawValue:)) ?? .native
            return appForm(op, errors.page, type: type, name: "", id: "", redirects: "", problem: nil)
        }
    }

    /// The registration form, with `problem` (the field and what is wrong) shown beside its field.
    func appForm(_ op: Operator, _ page: PageContext, type: ApplicationType, name: String, id: String, redirects: String,
                 problem: AdminError?, status: Int = 200) -> HTTPResponse {
        var body = ""
        if let problem {
            body += "<p class=\"error\" role=\"alert\" id=\"form-error\">" + page.html(ConsoleText.fieldProblem,
                "<code>\(esc(problem.field ?? "-"))</code>", esc(problem.message)) + "</p>\n"
        }
        var fields = "<fieldset>\n<legend>\(esc(page.text(ConsoleText.appType)))</legend>\n"
        for candidate in ApplicationType.allCases {
            let checked = candidate == type ? " checked" : ""
            fields += "<label class=\"choice\"><input type=\"radio\" name=\"type\" value=\"\(candidate.rawValue)\"\(checked)> "
                + "<strong>\(esc(page.text(candidate.label)))</strong><span class=\"muted\">\(esc(page.text(candidate.hint)))</span></label>\n"
        }
        fields += "</fieldset>\n"
        fields += "<label for=\"name\">\(esc(page.text(ConsoleText.appName)))</label>\n"
            + "<input id=\"name\" name=\"name\" type=\"text\" maxlength=\"200\" required value=\"\(esc(name))\">\n"
        fields += "<label for=\"client-id\">\(esc(page.text(ConsoleText.clientID)))</label>\n"
            + "<input id=\"client-id\" name=\"id\" type=\"text\" maxlength=\"128\" pattern=\"[A-Za-z0-9._~\\-]+\" value=\"\(esc(id))\" aria-describedby=\"client-id-hint\">\n"
            + "<p class=\"muted\" id=\"client-id-hint\">\(esc(page.text(ConsoleText.clientIDHint)))</p>\n"
        let invalid = problem?.field?.hasPrefix("redirect_uris") == true ? " aria-invalid=\"true\"" : ""
        fields += "<div id=\"redirects\">\n<label for=\"redirect-uris\">\(esc(page.text(ConsoleText.redirectURIs)))</label>\n"
            + "<textarea id=\"redirect-uris\" name=\"redirect_uris\" rows=\"3\" spellcheck=\"false\" autocapitalize=\"off\" aria-describedby=\"redirect-rules redirect-status\"\(invalid)>\(esc(redirects))</textarea>\n"
            + "<p id=\"redirect-status\" class=\"field-status\" role=\"status\" aria-live=\"polite\"></p>\n"
            + Self.rulesAside(page, shown: type) + "</div>\n"
        body += appFormBox(page, type: type)
        body += Self.form(Self.apps, op, fields, button: page.text(ConsoleText.createApp))
        body += "</div>\n"
        return render(op, page, section: .apps, title: page.text(ConsoleText.newAppTitle), body: body, status: status, script: true)
    }

    /// `POST /console/apps`: registers the app through `AdminService.createClient` (every rule of
    /// `ClientRegistration`, RFC 8252 for the redirect URIs). A refusal shows the form again with
    /// the field named and nothing created; a secret is shown once, on this answer only.
    func createApp(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submit(request, errors, operation: "createClient") { op, form in
            let page = errors.page
            let name = ((try? form.single("name")) ?? "")?.trimmingCharacters(in: .whitespaces) ?? ""
            var id = ((try? form.single("id")) ?? "")?.trimmingCharacters(in: .whitespaces) ?? ""
            let redirectText = ((try? form.single("redirect_uris")) ?? "") ?? ""
            let redirects = Self.lines(redirectText)
            let typeText = (try? form.single("type")) ?? nil
            guard let type = typeText.flatMap(ApplicationType.init(rawValue:)) else {
                return appForm(op, page, type: .native, name: name, id: id, redirects: redirectText,
                               problem: AdminError.invalid("type", page.text(ConsoleText.pickType)), status: 400)
            }
            if !type.takesRedirects, !redirects.isEmpty {
                return appForm(op, page, type: type, name: name, id: id, redirects: redirectText,
                               problem: AdminError.invalid("redirect_uris", page.text(ConsoleText.uriNoneAllowed)), status: 400)
            }
            if id.isEmpty { id = Self.suggestedID(name: name, type: type, redirects: redirects, random: environment.random) }
            do {
                let created = try op.service.createClient(type.spec(id: id, name: name, redirects: redirects))
                return appPage(op, page, record: created.record, secret: created.secret, notice: nil)
            } catch let error as AdminError where error.status == 400 || error.status == 409 {
                return appForm(op, page, type: type, name: name, id: id, redirects: redirectText, problem: error, status: error.status)
            }
        }
    }

    /// The rules beside the redirect-URI field: those of `shown`, and (`every`) the other types'
    /// hidden, for the script to show when another type is picked.
    static func rulesAside(_ page: PageContext, shown: ApplicationType, every: Bool = true) -> String {
        let blocks = (every ? ApplicationType.allCases : [shown]).compactMap { $0.redirectRules(page, hidden: $0 != shown) }
        return "<aside id=\"redirect-rules\" class=\"rules\">\n" + blocks.joined() + "</aside>\n"
    }

    /// The box around an app form: the type it is checked as, and the script's messages in the
    /// page's language (the server says the same, `RedirectURI`).
    func appFormBox(_ page: PageContext, type: ApplicationType) -> String {
        return "<div id=\"app-form\" data-type=\"\(type.rawValue)\" data-ok=\"\(esc(page.text(ConsoleText.uriOK)))\" data-private-confidential=\"\(esc(page.text(ConsoleText.uriPrivateConfidential)))\" data-none=\"\(esc(page.text(ConsoleText.uriNoneAllowed)))\">\n"
    }

    /// One URI per line, blank lines dropped.
    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A client id when none was given: a native app's private-use scheme (its bundle id, RFC
    /// 8252 §7.1), else the type and a random suffix.
    static func suggestedID(name: String, type: ApplicationType, redirects: [String], random: any RandomSource) -> String {
        if type == .native, let first = redirects.first, let colon = first.firstIndex(of: ":"),
           let uri = try? RedirectURI(registering: first), uri.kind == .privateUseScheme {
            return String(first[..<colon])
        }
        return type.rawValue + "-" + Base64URL.encode(random.bytes(6)).lowercased().filter { $0.isLetter || $0.isNumber }
    }

    // MARK: one app

    /// `GET /console/apps/{id}`: the app, its quick start, and (write role) its forms.
    func appDetailPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let record = try op.service.client(try AdminRequest.id(request))
            return appPage(op, errors.page, record: record, secret: nil, notice: Self.notice(request, errors.page))
        }
    }

    func appPage(_ op: Operator, _ page: PageContext, record: ClientRecord, secret: String?, notice: String?, status: Int = 200) -> HTTPResponse {
        let type = ApplicationType(record)
        var body = notice ?? ""
        if let secret {
            body += "<section id=\"secret\" class=\"secret\">\n<h2>\(esc(page.text(ConsoleText.secretHeading)))</h2>\n"
                + "<p>\(esc(page.text(ConsoleText.secretOnce)))</p>\n<pre><code id=\"client-secret\">\(esc(secret))</code></pre>\n</section>\n"
        }
        body += "<dl class=\"facts\">\n<dt>\(esc(page.text(ConsoleText.clientID)))</dt><dd><code id=\"app-client-id\">\(esc(record.id))</code></dd>\n"
            + "<dt>\(esc(page.text(ConsoleText.appType)))</dt><dd>\(esc(page.text(type.label)))</dd>\n"
            + "<dt>\(esc(page.text(ConsoleText.issuerLabel)))</dt><dd><code>\(esc(issuer))</code></dd>\n"
        if type.takesRedirects {
            body += "<dt>\(esc(page.text(ConsoleText.redirectURIs)))</dt><dd>" + record.redirectURIs.map { "<code>\(esc($0))</code>" }.joined(separator: "<br>") + "</dd>\n"
        }
        body += "<dt>\(esc(page.text(ConsoleText.secretLabel)))</dt><dd>\(esc(page.text(record.secretHash == nil ? ConsoleText.noSecret : ConsoleText.hasSecret)))</dd>\n</dl>\n"
        body += quickStart(page, record: record, type: type)
        if op.may("updateClient") {
            var fields = "<label for=\"name\">\(esc(page.text(ConsoleText.appName)))</label>\n"
                + "<input id=\"name\" name=\"name\" type=\"text\" maxlength=\"200\" required value=\"\(esc(record.name))\">\n"
            if type.takesRedirects {
                // The rules of the app's stored type beside the field, checked as typed (the script).
                fields += "<label for=\"redirect-uris\">\(esc(page.text(ConsoleText.redirectURIs)))</label>\n"
                    + "<textarea id=\"redirect-uris\" name=\"redirect_uris\" rows=\"3\" spellcheck=\"false\" autocapitalize=\"off\" aria-describedby=\"redirect-rules redirect-status\">\(esc(record.redirectURIs.joined(separator: "\n")))</textarea>\n"
                    + "<p id=\"redirect-status\" class=\"field-status\" role=\"status\" aria-live=\"polite\"></p>\n"
                    + Self.rulesAside(page, shown: type, every: false)
            }
            let form = Self.form(Self.path(Self.app, record.id), op, fields, button: page.text(ConsoleText.save))
            body += "<section id=\"edit\">\n<h2>\(esc(page.text(ConsoleText.editHeading)))</h2>\n"
                + (type.takesRedirects ? appFormBox(page, type: type) + form + "</div>\n" : form) + "</section>\n"
        }
        if op.may("rotateClientSecret"), !record.isPublic {
            body += "<section id=\"rotate\">\n<h2>\(esc(page.text(ConsoleText.rotateSecretHeading)))</h2>\n<p class=\"muted\">\(esc(page.text(ConsoleText.rotateSecretHint)))</p>\n"
                + Self.form(Self.path(Self.appSecret, record.id), op, "", button: page.text(ConsoleText.rotateSecret), secondary: true) + "</section>\n"
        }
        if op.may("deleteClient") {
            body += "<section id=\"delete\">\n<h2>\(esc(page.text(ConsoleText.deleteAppHeading)))</h2>\n<p class=\"muted\">\(esc(page.text(ConsoleText.deleteAppHint)))</p>\n"
                + Self.form(Self.path(Self.appDelete, record.id), op, "", button: page.text(ConsoleText.deleteApp), danger: true) + "</section>\n"
        }
        return render(op, page, section: .apps, title: record.name, body: body, status: status,
                      script: op.may("updateClient") && type.takesRedirects)
    }

    /// `POST /console/apps/{id}`: a new name and redirect URIs, through `AdminService.updateClient`.
    func updateApp(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submit(request, errors, operation: "updateClient") { op, form in
            let existing = try op.service.client(try AdminRequest.id(request))
            var spec = AdminService.spec(of: existing)
            if let name = (try? form.single("name")) ?? nil { spec.name = name.trimmingCharacters(in: .whitespaces) }
            if ApplicationType(existing).takesRedirects, let text = (try? form.single("redirect_uris")) ?? nil { spec.redirectURIs = Self.lines(text) }
            do {
                _ = try op.service.updateClient(spec, existing: existing)
            } catch let error as AdminError where error.status == 400 {
                let problem = "<p class=\"error\" role=\"alert\" id=\"form-error\">" + errors.page.html(ConsoleText.fieldProblem,
                    "<code>\(HTMLPage.escape(error.field ?? "-"))</code>", HTMLPage.escape(error.message)) + "</p>\n"
                return appPage(op, errors.page, record: existing, secret: nil, notice: problem, status: 400)
            }
            return Self.back(Self.path(Self.app, existing.id), ConsoleNotice.appSaved.rawValue)
        }
    }

    /// `POST /console/apps/{id}/secret`: a new secret, shown once on this answer.
    func rotateAppSecret(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submit(request, errors, operation: "rotateClientSecret") { op, _ in
            let id = try AdminRequest.id(request)
            let secret = try op.service.rotateSecret(id)
            return appPage(op, errors.page, record: try op.service.client(id), secret: secret, notice: nil)
        }
    }

    /// `POST /console/apps/{id}/delete`.
    func deleteApp(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submit(request, errors, operation: "deleteClient") { op, _ in
            try op.service.deleteClient(try AdminRequest.id(request))
            return Self.back(Self.apps, ConsoleNotice.appDeleted.rawValue)
        }
    }

    // MARK: quick start

    /// The quick-start panel: the exact snippets for this app, issuer and client id filled in.
    func quickStart(_ page: PageContext, record: ClientRecord, type: ApplicationType) -> String {
        let issuer = self.issuer.hasSuffix("/") ? String(self.issuer.dropLast()) : self.issuer
        let id = record.id
        let redirect = record.redirectURIs.first ?? "com.example.app:/oauth/callback"
        var snippets: [(String, String)] = []
        switch type {
        case .native:
            let scheme = redirect.split(separator: ":").first.map(String.init) ?? "com.example.app"
            snippets.append(("SignetKit (Swift)", """
                import SignetKit

                let client = try await SignInClient.discover(
                    ClientConfiguration(issuer: "\(issuer)", clientID: "\(id)",
                                        redirectURI: "\(redirect)"),
                    storage: KeychainTokenStorage(service: "\(id)"))   // SignetKitApple
                let request = try client.beginSignIn()   // PKCE, state, nonce
                // Open request.authorizationURL in ASWebAuthenticationSession(callbackURLScheme: "\(scheme)"),
                // then:
                let state = try await client.completeSignIn(callback: callbackURL)
                """))
            snippets.append(("AppAuth (Android, Kotlin)", """
                val config = AuthorizationServiceConfiguration.fetchFromIssuer(Uri.parse("\(issuer)")) { serviceConfig, _ ->
                    val request = AuthorizationRequest.Builder(serviceConfig!!, "\(id)",
                        ResponseTypeValues.CODE, Uri.parse("\(redirect)"))
                        .setScope("openid profile email offline_access")
                        .build()   // PKCE (S256) and state are added by AppAuth
                    startActivityForResult(AuthorizationService(this).getAuthorizationRequestIntent(request), RC_AUTH)
                }
                """))
            snippets.append(("curl", """
                # 1. Open in the system browser (PKCE: VERIFIER random, CHALLENGE = base64url(SHA-256(VERIFIER))):
                \(issuer)/authorize?response_type=code&client_id=\(FormEncoding.encodeComponent(id))&redirect_uri=\(FormEncoding.encodeComponent(redirect))&scope=openid&state=STATE&code_challenge=CHALLENGE&code_challenge_method=S256
                # 2. Redeem the code from the callback:
                curl -s \(issuer)/token -d grant_type=authorization_code -d client_id=\(id) \\
                  --data-urlencode redirect_uri=\(redirect) -d code=CODE -d code_verifier=VERIFIER
                """))
        case .web:
            snippets.append(("curl", """
                # 1. Send the browser to:
                \(issuer)/authorize?response_type=code&client_id=\(FormEncoding.encodeComponent(id))&redirect_uri=\(FormEncoding.encodeComponent(redirect))&scope=openid%20profile%20email&state=STATE&code_challenge=CHALLENGE&code_challenge_method=S256
                # 2. On your server, redeem the code:
                curl -s -u "\(id):$CLIENT_SECRET" \(issuer)/token -d grant_type=authorization_code \\
                  --data-urlencode redirect_uri=\(redirect) -d code=CODE -d code_verifier=VERIFIER
                """))
        case .service:
            snippets.append(("curl", """
                curl -s -u "\(id):$CLIENT_SECRET" \(issuer)/token \\
                  -d grant_type=client_credentials -d resource=https://api.example.com
                """))
        case .api:
            snippets.append(("SignetResource (Swift)", """
                import SignetResource

                let validator = try await AccessTokenValidator.discover(issuer: "\(issuer)", audience: "https://api.example.com")
                let token = try await validator.validate(authorization: request.headers["Authorization"])
                """))
            snippets.append(("curl (introspection, RFC 7662)", """
                curl -s -u "\(id):$CLIENT_SECRET" \(issuer)/introspect -d token=ACCESS_TOKEN
                """))
        }
        var html = "<section id=\"quick-start\" class=\"quick-start\">\n<h2>\(esc(page.text(ConsoleText.quickStartHeading)))</h2>\n"
            + "<p class=\"muted\">\(esc(page.text(ConsoleText.quickStartHint)))</p>\n"
        for (label, code) in snippets {
            html += "<h3>\(esc(label))</h3>\n<pre><code>\(esc(code))</code></pre>\n"
        }
        return html + "</section>\n"
    }
}
