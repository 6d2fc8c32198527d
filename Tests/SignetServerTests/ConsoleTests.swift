import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The console on the admin listener end to end: its sign-in through the public issuer, every
/// page and form, and the refusals (no session, no role, a viewer writing, a bad CSRF field, a bad
/// redirect URI), with nothing changed by a refusal; and the landing page at `/`.
@Suite(.endToEndLimit) struct ConsoleTests {
    static let tokenCookie = "signet_console"

    func environment() throws -> Interactive { try Interactive(adminListener: true) }

    /// A browser signed in to the console as the test user holding `role` (nil: none).
    func signedIn(_ env: Interactive, role: String? = "admin") async throws -> (FormBrowser, BrowserOutcome) {
        if let role { try AdminService(environment: env.server.environment).setOperatorRole(env.user, role) }
        let browser = FormBrowser()
        browser.trust(env.server.url("/"))
        let start = try await browser.open(env.server.adminURL("/console"))
        #expect(start.status == 200)
        #expect(start.url.path == Routes.signIn)
        #expect(start.url.port == env.server.port)
        return (browser, try await env.submitCredentials(browser))
    }

    func clientCount(_ env: Interactive) throws -> Int { try env.server.environment.storage.clients.allClients().count }

    @Test func theSignInGoesThroughTheIssuerWithPKCEAndTheAdminAudience() async throws {
        let env = try environment()
        defer { env.stop() }
        try AdminService(environment: env.server.environment).setOperatorRole(env.user, "admin")
        let first = try await HTTPTestClient().get(env.server.adminURL("/console"))
        #expect(first.status == 303)
        let location = try #require(first.header("Location").flatMap(URLComponents.init(string:)))
        #expect(location.port == env.server.port)
        #expect(location.path == Routes.authorize)
        let query = Dictionary((location.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(query["client_id"] == "signet-console")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["redirect_uri"] == "http://127.0.0.1:\(env.server.adminPort ?? 0)/console/callback")
        #expect(query["resource"] == env.server.url("/admin/v1").absoluteString)
        #expect(query["scope"]?.contains("admin:clients:write") == true)
        let setCookies = first.headers.values("Set-Cookie")
        let login = try #require(setCookies.first { $0.hasPrefix("signet_console_login=") }, "\(setCookies)")
        #expect(login.contains("HttpOnly") && login.contains("Path=/console/callback"))
        // The state is bound to the browser's own cookie, set before the sign-in.
        #expect(setCookies.contains { $0.hasPrefix("signet_console_csrf=") && $0.contains("HttpOnly") }, "\(setCookies)")

        let (browser, home) = try await signedIn(env)
        #expect(home.status == 200)
        #expect(home.url.path == "/console")
        #expect(home.url.port == env.server.adminPort)
        let page = try #require(browser.page)
        expectHardened(page)
        #expect(page.text.contains("id=\"sign-ins-today\""))
        #expect(page.text.contains("id=\"outbox-depth\""))
        #expect(page.text.contains("id=\"key-ages\""))
        #expect(!page.text.contains("<script"))
        // The session cookie is an opaque handle, Strict and HttpOnly, never a token.
        let cookie = try #require(browser.cookies[Self.tokenCookie])
        #expect(cookie.value.hasPrefix("sgo_") && cookie.value.utf8.count == 47, "\(cookie)")
        #expect(cookie.sameSite == "Strict" && cookie.httpOnly, "\(cookie)")
        // The callback's page moves on to the console itself (`Refresh`), so the Strict cookie comes along.
        #expect(home.history.suffix(2).map(\.path) == ["/console/callback", "/console"], "\(home.history)")
        // The public listener has no console.
        #expect(try await HTTPTestClient().get(env.server.url("/console")).status == 404)
        #expect(try await HTTPTestClient().get(env.server.url("/console/apps")).status == 404)
    }

    @Test func aUserWithoutARoleIsRefusedWithAClearPage() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, outcome) = try await signedIn(env, role: nil)
        #expect(outcome.status == 403)
        #expect(outcome.url.path == "/console/callback")
        let page = try #require(browser.page)
        expectHardened(page)
        #expect(page.text.contains("signet users role"))
        #expect(browser.cookies[Self.tokenCookie] == nil)
        // Giving the role later and signing in again works.
        try AdminService(environment: env.server.environment).setOperatorRole(env.user, "viewer")
        let again = try await browser.open(env.server.adminURL("/console"))
        #expect(again.status == 200)
        #expect(again.url.path == "/console")
    }

    @Test func noSessionIsRedirectedForPagesAndRefusedForForms() async throws {
        let env = try environment()
        defer { env.stop() }
        for path in ["/console", "/console/apps", "/console/apps/new", "/console/users", "/console/keys", "/console/audit",
                     "/console/connections", "/console/apps/native", "/console/orgs", "/console/orgs/acme"] {
            let response = try await HTTPTestClient().get(env.server.adminURL(path))
            #expect(response.status == 303, "\(path)")
            #expect(response.header("Location")?.hasPrefix(env.server.url(Routes.authorize).absoluteString) == true, "\(path)")
        }
        let before = try clientCount(env)
        for path in ["/console/apps", "/console/apps/native/delete", "/console/keys/rotate", "/console/users/\(env.user.id)/delete", "/console/orgs"] {
            let response = try await HTTPTestClient().post(env.server.adminURL(path), form: [("csrf", "x"), ("type", "native"), ("name", "X")])
            #expect(response.status == 401, "\(path)")
            expectHardened(response)
        }
        // A forged cookie is no session either.
        let forged: HTTPHeaders = ["Cookie": "\(Self.tokenCookie)=eyJhbGciOiJub25lIn0.e30."]
        #expect(try await HTTPTestClient().get(env.server.adminURL("/console"), headers: forged).status == 303)
        #expect(try clientCount(env) == before)
        #expect(try env.server.environment.storage.users.user(id: env.user.id) != nil)
    }

    @Test func formsWithoutOrWithAWrongCSRFFieldAreRefused() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        _ = try await browser.open(env.server.adminURL("/console/apps/new"))
        let field = try #require(browser.forms.first { $0.action.path == "/console/apps" }?.value("csrf"))
        #expect(!field.isEmpty)
        let before = try clientCount(env)
        let client = HTTPTestClient(cookies: browser.cookies)
        let app = [("type", "native"), ("name", "Notes"), ("redirect_uris", "com.example.notes:/cb")]
        let missing = try await client.post(env.server.adminURL("/console/apps"), form: app)
        #expect(missing.status == 403)
        expectHardened(missing)
        let wrong = try await client.post(env.server.adminURL("/console/apps"), form: app + [("csrf", "AAAA")])
        #expect(wrong.status == 403)
        // Without the browser's cookie the handle is no session at all.
        let token = try #require(browser.cookies[Self.tokenCookie]?.value)
        let onlyToken: HTTPHeaders = ["Cookie": "\(Self.tokenCookie)=\(token)"]
        #expect(try await HTTPTestClient().post(env.server.adminURL("/console/apps"), form: app + [("csrf", field)], headers: onlyToken).status == 401)
        #expect(try clientCount(env) == before)
        // The right field works.
        #expect(try await client.post(env.server.adminURL("/console/apps"), form: app + [("csrf", field)]).status == 200)
        #expect(try clientCount(env) == before + 1)
    }

    @Test func anInvalidRedirectURIIsRefusedWithTheFieldNamedAndNothingCreated() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        _ = try await browser.open(env.server.adminURL("/console/apps/new"))
        let form = try #require(browser.page)
        #expect(form.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(form.text.contains("RFC 8252"))
        let before = try clientCount(env)
        let cases: [(type: String, uri: String, field: String, says: String)] = [
            ("native", "http://localhost/callback", "redirect_uris[0]", "loopback IP literals"),
            ("native", "com.example.ok:/cb\nhttps://app.example.com/cb#frag", "redirect_uris[1]", "fragment"),
            ("native", "myapp:/cb", "redirect_uris[0]", "reverse domain name"),
            ("web", "com.example.web:/cb", "redirect_uris[0]", "private-use schemes are for native apps"),
            ("service", "https://svc.example.com/cb", "redirect_uris", "has no redirect URIs"),
            ("native", "", "redirect_uris", "at least one redirect URI"),
        ]
        for item in cases {
            _ = try await browser.open(env.server.adminURL("/console/apps/new"))
            let refused = try await browser.submit(formWithAction: "/console/apps",
                                                   fields: ["type": item.type, "name": "Bad", "id": "bad-app", "redirect_uris": item.uri])
            #expect(refused.status == 400, "\(item)")
            let text = refused.response.text
            #expect(text.contains("<code>\(item.field)</code>"), "\(item)")
            #expect(text.contains(item.says), "\(item)")
            #expect(text.contains("role=\"alert\""), "\(item)")
            #expect(try env.server.environment.storage.clients.client(id: "bad-app") == nil, "\(item)")
        }
        #expect(try clientCount(env) == before)
    }

    @Test func aNativeAppIsCreatedWithAQuickStartAndNoSecret() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        _ = try await browser.open(env.server.adminURL("/console/apps/new"))
        let created = try await browser.submit(formWithAction: "/console/apps",
                                               fields: ["type": "native", "name": "Notes <i>", "redirect_uris": "com.example.notes:/oauth/callback\nhttp://127.0.0.1/cb"])
        #expect(created.status == 200)
        let record = try #require(try env.server.environment.storage.clients.client(id: "com.example.notes"))
        #expect(record.isPublic)
        #expect(record.redirectURIs == ["com.example.notes:/oauth/callback", "http://127.0.0.1/cb"])
        let text = created.response.text
        #expect(text.contains("Notes &lt;i&gt;"))
        #expect(!text.contains("id=\"client-secret\""))
        #expect(text.contains("id=\"quick-start\""))
        #expect(text.contains("ClientConfiguration(issuer: &quot;\(env.server.issuer)&quot;, clientID: &quot;com.example.notes&quot;")
                || text.contains("ClientConfiguration(issuer: \"\(env.server.issuer)\""))
        #expect(text.contains("AppAuth"))
        #expect(text.contains("curl"))
        // The list shows it with its type.
        _ = try await browser.open(env.server.adminURL("/console/apps"))
        #expect(browser.page?.text.contains("com.example.notes") == true)
        #expect(browser.page?.text.contains("Native (mobile and desktop)") == true)
        let audit = try env.server.environment.storage.audit.listAudit(AuditQuery(event: "client_created", limit: 5))
        #expect(audit.first?.actor == "console:\(env.user.id)")
    }

    @Test func aWebAppShowsItsSecretOnceAndIsEditedRotatedAndDeleted() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        _ = try await browser.open(env.server.adminURL("/console/apps/new?type=web"))
        let created = try await browser.submit(formWithAction: "/console/apps",
                                               fields: ["type": "web", "name": "Shop", "id": "shop", "redirect_uris": "https://shop.example.com/cb"])
        #expect(created.status == 200)
        let secret = try #require(Self.secret(in: created.response.text))
        #expect(secret.hasPrefix("sgcs_"))
        let record = try #require(try env.server.environment.storage.clients.client(id: "shop"))
        #expect(!record.isPublic)
        #expect(record.secretHash != nil)
        // Shown once: the app's page never shows it again.
        let again = try await browser.open(env.server.adminURL("/console/apps/shop"))
        #expect(again.status == 200)
        #expect(!again.response.text.contains(secret))
        #expect(Self.secret(in: again.response.text) == nil)
        // Edit: a bad URI names the field and changes nothing; a good one saves.
        let bad = try await browser.submit(formWithAction: "/console/apps/shop", fields: ["name": "Shop 2", "redirect_uris": "http://shop.example.com/cb"])
        #expect(bad.status == 400)
        #expect(bad.response.text.contains("<code>redirect_uris[0]</code>"))
        #expect(try env.server.environment.storage.clients.client(id: "shop")?.name == "Shop")
        _ = try await browser.open(env.server.adminURL("/console/apps/shop"))
        let saved = try await browser.submit(formWithAction: "/console/apps/shop", fields: ["name": "Shop 2"])
        #expect(saved.status == 200)
        #expect(saved.url.query == "notice=app-saved")
        #expect(try env.server.environment.storage.clients.client(id: "shop")?.name == "Shop 2")
        // Rotate: a new secret, once.
        let rotated = try await browser.submit(formWithAction: "/console/apps/shop/secret")
        let second = try #require(Self.secret(in: rotated.response.text))
        #expect(second != secret)
        // Delete.
        _ = try await browser.open(env.server.adminURL("/console/apps/shop"))
        let deleted = try await browser.submit(formWithAction: "/console/apps/shop/delete")
        #expect(deleted.url.path == "/console/apps")
        #expect(deleted.url.query == "notice=app-deleted")
        #expect(try env.server.environment.storage.clients.client(id: "shop") == nil)
        #expect(try await browser.open(env.server.adminURL("/console/apps/shop")).status == 404)
    }

    @Test func serviceAndAPIAppsUseClientCredentials() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        for (type, id) in [("service", "billing"), ("api", "reports-api")] {
            _ = try await browser.open(env.server.adminURL("/console/apps/new"))
            let created = try await browser.submit(formWithAction: "/console/apps", fields: ["type": type, "name": id, "id": id, "redirect_uris": ""])
            #expect(created.status == 200, "\(type)")
            #expect(Self.secret(in: created.response.text) != nil, "\(type)")
            let record = try #require(try env.server.environment.storage.clients.client(id: id))
            #expect(record.grantTypes == ["client_credentials"], "\(type)")
        }
        _ = try await browser.open(env.server.adminURL("/console/apps/reports-api"))
        #expect(browser.page?.text.contains("/introspect") == true)
        #expect(browser.page?.text.contains(">API<") == true)
    }

    @Test func aViewerSeesEveryPageButChangesNothing() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, home) = try await signedIn(env, role: "viewer")
        #expect(home.status == 200)
        for path in ["/console", "/console/apps", "/console/users", "/console/users/\(env.user.id)", "/console/keys",
                     "/console/audit", "/console/connections", "/console/apps/native"] {
            let page = try await browser.open(env.server.adminURL(path))
            #expect(page.status == 200, "\(path)")
            #expect(!page.response.text.contains("action=\"/console/apps/native/delete\""), "\(path)")
            #expect(!page.response.text.contains("action=\"/console/keys/rotate\""), "\(path)")
        }
        // The form works for an admin only: a viewer's post, with a good CSRF field, is 403.
        let field = try #require(browser.forms.first { $0.action.path == "/console/signout" }?.value("csrf"))
        let client = HTTPTestClient(cookies: browser.cookies)
        let before = try clientCount(env)
        let keys = try env.server.environment.keyRing.records().count
        for (path, form) in [("/console/apps", [("type", "native"), ("name", "X"), ("redirect_uris", "com.example.x:/cb")]),
                             ("/console/apps/native/delete", []), ("/console/keys/rotate", []),
                             ("/console/users/\(env.user.id)/disable", []), ("/console/users/\(env.user.id)/delete", [])] {
            let refused = try await client.post(env.server.adminURL(path), form: form + [("csrf", field)])
            #expect(refused.status == 403, "\(path)")
            #expect(refused.text.contains("admin:"), "\(path)")
        }
        #expect(try clientCount(env) == before)
        #expect(try env.server.environment.keyRing.records().count == keys)
        let user = try #require(try env.server.environment.storage.users.user(id: env.user.id))
        #expect(user.disabledAt == nil)
        // The console's cookie is no admin API credential, not even for reading.
        let handle = try #require(browser.cookies[Self.tokenCookie]?.value)
        let api = try await HTTPTestClient().get(env.server.adminURL("/admin/v1/clients"), headers: ["Authorization": "Bearer \(handle)"])
        expectAdminError(api, 401, "invalid_token")
        // Taking the role away ends the console session's power at once.
        try AdminService(environment: env.server.environment).setOperatorRole(env.user, "none")
        let gone = try await browser.open(env.server.adminURL("/console/apps"))
        #expect(gone.status == 403)
    }

    @Test func usersAreSearchedDisabledEnabledRevokedAndDeleted() async throws {
        let env = try environment()
        defer { env.stop() }
        let bob = try env.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: Interactive.password)
        let (browser, _) = try await signedIn(env)
        let found = try await browser.open(env.server.adminURL("/console/users", query: [("q", "bob")]))
        #expect(found.status == 200)
        #expect(found.response.text.contains(">bob@example.com</a>"))
        #expect(!found.response.text.contains(">alice@example.com</a>"))
        let field = try #require(browser.forms.first { $0.action.path == "/console/signout" }?.value("csrf"))
        let page = try await browser.open(env.server.adminURL("/console/users/\(bob.id)"))
        #expect(page.status == 200)
        #expect(page.response.text.contains("id=\"sessions\""))
        let disabled = try await browser.submit(formWithAction: "/console/users/\(bob.id)/disable")
        #expect(disabled.url.query == "notice=user-disabled")
        #expect(try env.server.environment.storage.users.user(id: bob.id)?.disabledAt != nil)
        let enabled = try await browser.submit(formWithAction: "/console/users/\(bob.id)/enable")
        #expect(enabled.url.query == "notice=user-enabled")
        #expect(try env.server.environment.storage.users.user(id: bob.id)?.disabledAt == nil)
        let revoked = try await browser.submit(formWithAction: "/console/users/\(bob.id)/revoke")
        #expect(revoked.url.query == "notice=user-revoked")
        // Without the box ticked nothing is deleted.
        let unconfirmed = try await browser.submit(formWithAction: "/console/users/\(bob.id)/delete", removing: ["confirm"])
        #expect(unconfirmed.url.query == "notice=delete-not-confirmed")
        #expect(try env.server.environment.storage.users.user(id: bob.id) != nil)
        let deleted = try await browser.submit(formWithAction: "/console/users/\(bob.id)/delete", fields: ["confirm": "yes"])
        #expect(deleted.url.path == "/console/users")
        #expect(try env.server.environment.storage.users.user(id: bob.id) == nil)
        #expect(try await browser.open(env.server.adminURL("/console/users/\(bob.id)")).status == 404)
        // An unknown action is 404 and changes nothing.
        let unknown = try await HTTPTestClient(cookies: browser.cookies).post(env.server.adminURL("/console/users/\(env.user.id)/promote"),
                                                                              form: [("csrf", field)])
        #expect(unknown.status == 404)
    }

    @Test func aUsersSessionsGrantsConsentsAndSecondFactorsAreShownAndEnded() async throws {
        let env = try environment()
        defer { env.stop() }
        let storage = env.server.environment.storage
        let bob = try env.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: Interactive.password)
        // Bob signs in to the native app: a session and a refresh grant.
        let bobBrowser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await bobBrowser.open(env.authorizeURL(pkce: pkce))
        let code = try #require(try await env.submitCredentials(bobBrowser, email: "bob@example.com").requireRedirect()["code"])
        let tokens = try await env.redeem(code: code, pkce: pkce)
        #expect(tokens.status == 200)
        try storage.consents.putConsent(ConsentRecord(userID: bob.id, clientID: "web", scopes: ["openid"], grantedAt: env.server.clock.now))
        #expect(try storage.secondFactors.putUnconfirmedTOTP(TOTPFactorRecord(userID: bob.id, sealedSecret: [1], createdAt: env.server.clock.now)))
        #expect(try storage.secondFactors.confirmTOTP(userID: bob.id, sealedSecret: [1], step: 1, at: env.server.clock.now, recoveryCodeHashes: [[1], [2]]))

        let (browser, _) = try await signedIn(env)
        let page = try await browser.open(env.server.adminURL("/console/users/\(bob.id)"))
        #expect(page.status == 200)
        for section in ["sessions", "grants", "consents", "mfa"] { #expect(page.response.text.contains("id=\"\(section)\""), "\(section)") }
        #expect(page.response.text.contains("<code>native</code>"))
        let grantForm = try #require(browser.forms.first { $0.action.path.contains("/grants/") })
        let revoked = try await browser.submit(grantForm)
        #expect(revoked.url.query == "notice=ended")
        #expect(try storage.refreshTokens.activeRefreshGrants(userID: bob.id, now: env.server.clock.now).isEmpty)
        let consentForm = try #require(browser.forms.first { $0.action.path.contains("/consents/") })
        _ = try await browser.submit(consentForm)
        #expect(try storage.consents.consent(userID: bob.id, clientID: "web") == nil)
        let sessionForm = try #require(browser.forms.first { $0.action.path.contains("/sessions/") })
        _ = try await browser.submit(sessionForm)
        #expect(try storage.sessions.activeSessions(userID: bob.id, now: env.server.clock.now).isEmpty)
        let reset = try await browser.submit(formWithAction: "/console/users/\(bob.id)/mfa-reset")
        #expect(reset.url.query == "notice=mfa-reset")
        #expect(try storage.secondFactors.totpFactor(userID: bob.id) == nil)
        // Another user's grant id through this user's path is 404, and changes nothing.
        let field = try #require(browser.forms.first { $0.action.path == "/console/signout" }?.value("csrf"))
        let other = try await HTTPTestClient(cookies: browser.cookies).post(env.server.adminURL("/console/users/\(env.user.id)/grants/nope"),
                                                                            form: [("csrf", field)])
        #expect(other.status == 404)
    }

    @Test func keysRotateAndTheAuditViewerFiltersAndPages() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        let keys = try await browser.open(env.server.adminURL("/console/keys"))
        #expect(keys.status == 200)
        let before = try env.server.environment.keyRing.records().count
        let rotated = try await browser.submit(formWithAction: "/console/keys/rotate")
        #expect(rotated.url.query == "notice=keys-rotated")
        #expect(try env.server.environment.keyRing.records().count > before)
        // 60 more events by the operator, so the viewer pages.
        for _ in 0..<60 { try AdminService(environment: env.server.environment).setOperatorRole(env.user, "admin") }
        let audit = try await browser.open(env.server.adminURL("/console/audit", query: [("event", "operator_role_changed")]))
        #expect(audit.status == 200)
        let rows = audit.response.text.components(separatedBy: "<code>operator_role_changed</code>").count - 1
        #expect(rows == 50)
        #expect(!audit.response.text.contains("<code>signing_keys_rotated</code>"))
        let older = try #require(browser.page.flatMap { Self.attribute("href", ofID: "older", in: $0.text) })
        let next = try await browser.open(env.server.adminURL(older.components(separatedBy: "?")[0],
                                                               query: Self.pairs(older)))
        #expect(next.status == 200)
        #expect(next.response.text.components(separatedBy: "<code>operator_role_changed</code>").count - 1 == 11)
        // By actor: the console's own change.
        let byActor = try await browser.open(env.server.adminURL("/console/audit", query: [("actor", "console:\(env.user.id)")]))
        #expect(byActor.response.text.contains("<code>signing_keys_rotated</code>"))
        #expect(!byActor.response.text.contains("<code>operator_role_changed</code>"))
    }

    @Test func connectionsAndSignOut() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        let connections = try await browser.open(env.server.adminURL("/console/connections"))
        #expect(connections.status == 200)
        let signedOut = try await browser.submit(formWithAction: "/console/signout")
        #expect(signedOut.status == 200)
        #expect(browser.cookies[Self.tokenCookie] == nil)
        let after = try await HTTPTestClient(cookies: browser.cookies).get(env.server.adminURL("/console/apps"))
        #expect(after.status == 303)
    }

    /// The console's cookie is no API credential: `/admin/v1` refuses it as a bearer token. Sign-out
    /// deletes the session on the server and revokes its sign-in's grant: a copy of both cookies
    /// kept from before is refused by the console afterwards.
    @Test func theCookieIsNoAPICredentialAndSignOutEndsTheSessionOnTheServer() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        let handle = try #require(browser.cookies[Self.tokenCookie]?.value)
        let binding = try #require(browser.cookies["signet_console_csrf"]?.value)
        let port = env.server.adminPort ?? 0
        for value in [handle, binding] {
            let api = try await AdminFixture.raw("GET", "/admin/v1/clients", port: port, body: [], headers: ["Authorization": "Bearer \(value)"])
            expectAdminError(api, 401, "invalid_token")
        }
        let copy: HTTPHeaders = ["Cookie": "\(Self.tokenCookie)=\(handle); signet_console_csrf=\(binding)"]
        #expect(try await AdminFixture.raw("GET", "/console/apps", port: port, body: [], headers: copy).status == 200)
        let tokens = OpaqueTokens(hashKey: env.server.environment.masterKey.tokenHashKey, random: SystemRandomSource())
        let record = try #require(try env.server.environment.storage.consoleSessions.consoleSession(idHash: tokens.hash(handle), now: Date()))
        #expect(record.userID == env.user.id)
        #expect(record.expiresAt.timeIntervalSince(record.createdAt) == TimeInterval(ConsoleClient.tokenLifetime))
        // Without the CSRF field sign-out is refused and the session stays.
        #expect(try await HTTPTestClient(cookies: browser.cookies).post(env.server.adminURL("/console/signout"), form: []).status == 403)
        #expect(try await AdminFixture.raw("GET", "/console/apps", port: port, body: [], headers: copy).status == 200)
        let signedOut = try await browser.submit(formWithAction: "/console/signout")
        #expect(signedOut.status == 200)
        #expect(browser.cookies[Self.tokenCookie] == nil)
        let page = try await AdminFixture.raw("GET", "/console/apps", port: port, body: [], headers: copy)
        #expect(page.status == 303 && page.header("Location")?.contains("/authorize?") == true, "\(page)")
        #expect(try env.server.environment.storage.consoleSessions.consoleSession(idHash: tokens.hash(handle), now: Date()) == nil)
        #expect(try env.server.environment.storage.refreshTokens.isGrantActive(id: record.grantID, now: Date()) == false)
        let revoked = try #require(try env.server.environment.storage.audit.listAudit(AuditQuery(event: "token_revoked")).first)
        #expect(revoked.clientID == "signet-console" && revoked.actor == "console:\(env.user.id)", "\(revoked)")
    }

    /// Revoking the operator's sessions and tokens (the admin API's `revoke`) ends a console
    /// session too: it lives on its sign-in's grant.
    @Test func revokingTheOperatorsGrantsEndsTheConsoleSession() async throws {
        let env = try environment()
        defer { env.stop() }
        let (browser, _) = try await signedIn(env)
        #expect(try await HTTPTestClient(cookies: browser.cookies).get(env.server.adminURL("/console/apps")).status == 200)
        _ = try env.server.environment.storage.refreshTokens.revokeGrants(userID: env.user.id, reason: RevokeReason.adminRevoked, now: Date())
        let after = try await HTTPTestClient(cookies: browser.cookies).get(env.server.adminURL("/console/apps"))
        #expect(after.status == 303 && after.header("Location")?.contains("/authorize?") == true, "\(after)")
    }

    /// Login CSRF (RFC 6749 §10.12): a callback is taken only in the browser whose sign-in it
    /// ends, and a session handle planted in another browser is no session there.
    @Test func aCallbackOrASessionCarriedToAnotherBrowserIsRefused() async throws {
        let env = try environment()
        defer { env.stop() }
        try AdminService(environment: env.server.environment).setOperatorRole(env.user, "admin")
        // The attacker signs in up to the callback and keeps it: its browser does not follow to the console.
        let attackerJar = CookieJar()
        let start = try await HTTPTestClient(cookies: attackerJar).get(env.server.adminURL("/console"))
        let authorize = try #require(start.location.flatMap(URL.init(string:)))
        let attacker = FormBrowser(cookies: attackerJar)
        #expect(try await attacker.open(authorize).url.path == Routes.signIn)
        let callback = try #require(try await env.submitCredentials(attacker).redirect?.url, "the sign-in did not stop at the console")
        #expect(callback.path == "/console/callback")
        // The victim's browser has started a sign-in of its own, and a fresh one none at all.
        let victim = FormBrowser()
        victim.trust(env.server.url("/"))
        #expect(try await victim.open(env.server.adminURL("/console")).url.path == Routes.signIn)
        for browser in [victim, FormBrowser()] {
            let taken = try await browser.open(callback)
            #expect(taken.status == 400, "\(taken)")
            #expect(taken.response.text.contains("came back to another browser"))
            #expect(browser.cookies[Self.tokenCookie] == nil)
        }
        // The victim's login cookie with the attacker's code and state is refused too: the state is bound to the browser.
        if let login = attackerJar["signet_console_login"] { victim.cookies.set(login) }
        #expect(try await victim.open(callback).status == 400)
        #expect(victim.cookies[Self.tokenCookie] == nil)
        // In the attacker's own browser the same callback works: the refusals are the binding's.
        let own = try await attacker.open(callback)
        #expect(own.status == 200 && own.url.path == "/console", "\(own)")
        let planted = try #require(attackerJar[Self.tokenCookie])
        #expect(try await HTTPTestClient(cookies: attackerJar).get(env.server.adminURL("/console/apps")).status == 200)
        // The attacker's session planted in the victim's browser (its own browser cookie kept) is no session.
        victim.cookies.set(planted)
        let plantedPage = try await HTTPTestClient(cookies: victim.cookies).get(env.server.adminURL("/console/apps"))
        #expect(plantedPage.status == 303 && plantedPage.header("Location")?.contains("/authorize?") == true, "\(plantedPage)")
        let plantedForm = try await HTTPTestClient(cookies: victim.cookies).post(env.server.adminURL("/console/keys/rotate"), form: [("csrf", "x")])
        #expect(plantedForm.status == 401)
    }

    /// Plain http only on a loopback address: an http `admin.console_url` on another host makes
    /// no valid redirect URI, so there is no console at all (docs/security.md, "The console").
    @Test func aPlainHTTPConsoleURLOffLoopbackTurnsTheConsoleOff() async throws {
        let env = try Interactive(adminListener: true) { configuration in configuration.admin.consoleURL = "http://console.example.com" }
        defer { env.stop() }
        #expect(try await HTTPTestClient().get(env.server.adminURL("/console")).status == 404)
        #expect(try await HTTPTestClient().get(env.server.adminURL("/console/callback")).status == 404)
        #expect(try env.server.application.authorizationServer.clients.client(id: "signet-console") == nil)
    }

    @Test func theLandingPageNamesTheProductAndLinksDiscovery() async throws {
        let env = try Interactive { configuration in
            configuration.branding.productName = "Acme ID"
            configuration.branding.docsURL = "https://docs.example.com/"
        }
        defer { env.stop() }
        let page = try await HTTPTestClient().get(env.server.url("/"))
        #expect(page.status == 200)
        expectHardened(page)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(page.text.contains("Acme ID"))
        #expect(page.text.contains("href=\"/.well-known/openid-configuration\""))
        #expect(page.text.contains("href=\"https://docs.example.com/\""))
        let german = try await HTTPTestClient().get(env.server.url("/"), headers: ["Accept-Language": "de"])
        #expect(german.text.contains("Willkommen"))
        // Any other unknown path is still JSON.
        let unknown = try await HTTPTestClient().get(env.server.url("/nothing-here"))
        #expect(unknown.status == 404)
        #expect(try unknown.json()["error"]?.stringValue == "not_found")
    }

    // MARK: helpers

    static func secret(in html: String) -> String? {
        guard let start = html.range(of: "<code id=\"client-secret\">"), let end = html[start.upperBound...].range(of: "</code>") else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    static func attribute(_ name: String, ofID id: String, in html: String) -> String? {
        guard let tag = html.range(of: "id=\"\(id)\"") else { return nil }
        let before = html[..<tag.lowerBound]
        guard let open = before.range(of: "<", options: .backwards) else { return nil }
        let element = html[open.lowerBound...].prefix { $0 != ">" }
        guard let attr = element.range(of: "\(name)=\"") else { return nil }
        return String(element[attr.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    static func pairs(_ link: String) -> [(String, String)] {
        let query = link.components(separatedBy: "?").dropFirst().joined(separator: "?")
        return query.split(separator: "&").map { part in
            let kv = part.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            return (kv[0], kv.count > 1 ? kv[1] : "")
        }
    }
}
