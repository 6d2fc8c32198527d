import Foundation
import SignetCore
import SignetCrypto
import SignetFederation
import SignetJOSE
import SignetStore
import SignetServer
import SignetTesting
import Testing

/// Apple-style federation in a real browser (headless Chromium over WebDriver) across two sites:
/// Signet on https under its own name, the provider on plain-http 127.0.0.1. The provider's
/// form_post back to Signet is then a genuine cross-site POST, so the browser's SameSite rules
/// decide which cookies arrive: the binding cookie (`SameSite=None; Secure`) must, the session
/// cookie stays `Lax`, and the link cookie must survive the redirect that follows the post.
@Suite("federated sign-in in a real browser, across sites", .serialized, .endToEndLimit) struct FederationBrowserTests {
    static let script = PackagePaths.packageRoot.appendingPathComponent("Tests/SignetServerTests/Browser/federated_signin.py").path
    static let host = "signet.test"

    struct Run {
        let result: [String: JSONValue]
        var query: [String: JSONValue] { result["query"]?.objectValue ?? [:] }
        var cookies: [String: [String: JSONValue]] {
            var named: [String: [String: JSONValue]] = [:]
            for cookie in result["cookies"]?.arrayValue ?? [] {
                if let object = cookie.objectValue, let name = object["name"]?.stringValue { named[name] = object }
            }
            return named
        }
        /// The ID token's claims from the redeemed code.
        func idTokenClaims() throws -> [String: JSONValue] {
            let token = try #require(result["token"]?.objectValue)
            #expect(token["status"] == .int(200), "token response: \(token)")
            let idToken = try #require(token["body"]?["id_token"]?.stringValue)
            let payload = try #require(Base64URL.decode(String(idToken.split(separator: ".")[1])))
            return try #require(try JSONValue.parse(payload, maximumDepth: 8).objectValue)
        }
    }

    /// Runs the browser through the Apple-style flow against `fed`.
    func run(_ fed: Federated, password: String? = nil) async throws -> Run {
        try await run(fed.interactive, connection: "Apple", password: password)
    }

    /// Runs the browser from the app's request at `interactive` through the provider button
    /// `connection`; `extra` adds environment (the upstream's credentials); `client` is the app.
    func run(_ interactive: Interactive, connection: String, password: String? = nil, client: String = "native",
             extra: [String: String] = [:], pkce: PKCEPair = PKCEPair.generate()) async throws -> Run {
        let home = try TemporaryDirectory(prefix: "browser")
        defer { home.remove() }
        let server = interactive.server
        let base = server.baseURL.absoluteString
        let start = interactive.authorizeURL(pkce: pkce).absoluteString.replacingOccurrences(of: base, with: server.issuer)
        let logFile = home.appending("browser.log")
        var environment = [
            "SIGNET_START_URL": start, "SIGNET_HOST_RULES": "MAP \(Self.host) 127.0.0.1", "SIGNET_CONNECTION": connection,
            "SIGNET_REDIRECT_PREFIX": Interactive.callback, "SIGNET_ISSUER": server.issuer,
            "SIGNET_TOKEN_URL": base + Routes.token, "SIGNET_CA_FILE": server.configuration.http.tlsCertificateFile ?? "",
            "SIGNET_CLIENT_ID": client, "SIGNET_CODE_VERIFIER": pkce.verifier, "SIGNET_REDIRECT_URI": Interactive.callback,
            "SIGNET_TEST_LOG": logFile, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "", "DISPLAY": ""]
        if let password { environment["SIGNET_PASSWORD"] = password }
        environment.merge(extra) { $1 }
        let outcome = try await Subprocess.run(PackagePaths.python, [Self.script], environment: environment, timeoutSeconds: 120)
        let browserLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "(no browser log)"
        #expect(outcome.succeeded, "stderr: \(outcome.stderr)\nbrowser: \(browserLog)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let result = try #require(try JSONValue.parse(Array(last.utf8), maximumDepth: 12).objectValue,
                                  "stdout: \(outcome.stdout)\nstderr: \(outcome.stderr)")
        #expect(result["error"] == nil, "browser: \(browserLog) stopped at: \(result["stoppedAt"] ?? "-")")
        return Run(result: result)
    }

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func appleFormPostAcrossSitesSignsUpWithTheSessionCookieStillLax() async throws {
        try RealPart.chromium.use()
        let fed = try Federated(.apple, user: MockUser(email: "cross.site@example.org"), tlsHost: Self.host)
        defer { fed.stop() }
        #expect(fed.server.issuer.hasPrefix("https://\(Self.host):"))
        let run = try await run(fed)
        #expect(run.result["linkPage"] == .bool(false))
        #expect(run.query["state"] == .string("st-123"))
        #expect(run.query["iss"] == .string(fed.server.issuer))
        let claims = try run.idTokenClaims()
        let user = try #require(try fed.server.environment.storage.users.user(email: "cross.site@example.org"))
        #expect(claims["sub"] == .string(user.id))
        #expect(claims["amr"] == .array([.string("fed")]))
        // The browser's view of Signet's cookies: the session stays Lax; only the binding is None.
        let cookies = run.cookies
        let session = try #require(cookies["__Host-signet_session"], "cookies: \(cookies.keys.sorted())")
        #expect(session["sameSite"] == .string("Lax"))
        #expect(session["secure"] == .bool(true))
        #expect(session["httpOnly"] == .bool(true))
        let binding = try #require(cookies["__Host-signet_fed"])
        #expect(binding["sameSite"] == .string("None"))
        #expect(binding["secure"] == .bool(true))
        #expect(cookies["__Host-signet_csrf"]?["sameSite"] == .string("Lax"))
    }

    /// The headless API as an app uses it: the app (the script) calls `/headless/start` and
    /// `/headless/provider/start`, opens the `authorizationUrl` in Chromium, which lands on
    /// Signet's launch URL (binding cookie set, 302 to the provider), and Apple's cross-site
    /// form_post then arrives with that cookie, so the callback signs this browser in.
    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func headlessAppleSignInBindsTheSystemBrowserAtLaunch() async throws {
        try RealPart.chromium.use()
        let fed = try Federated(.apple, user: MockUser(email: "headless.browser@example.org"), tlsHost: Self.host)
        defer { fed.stop() }
        let storage = fed.server.environment.storage
        var client = try #require(try storage.clients.client(id: "headless"))
        client.redirectURIs.append(Interactive.callback)
        try storage.clients.upsertClient(client)
        let pkce = PKCEPair.generate()
        let base = fed.server.baseURL.absoluteString
        let body: JSONValue = .object([
            "responseType": .string("code"), "clientId": .string("headless"), "redirectUri": .string(Interactive.callback),
            "state": .string("st-123"), "scope": .string("openid profile email offline_access"),
            "codeChallenge": .string(pkce.challenge), "codeChallengeMethod": .string("S256")])
        let run = try await run(fed.interactive, connection: "Apple", client: "headless", extra: [
            "SIGNET_HEADLESS_BODY": body.serializedString(), "SIGNET_HEADLESS_START_URL": base + Routes.headlessStart,
            "SIGNET_HEADLESS_PROVIDER_URL": base + Routes.headlessProviderStart, "SIGNET_HEADLESS_CONNECTION": "apple"], pkce: pkce)
        #expect(run.result["authorizationUrl"] == .string(fed.server.issuer + Routes.federationLaunch))
        #expect(run.result["linkPage"] == .bool(false))
        #expect(run.query["state"] == .string("st-123"))
        #expect(run.query["iss"] == .string(fed.server.issuer))
        let claims = try run.idTokenClaims()
        let user = try #require(try storage.users.user(email: "headless.browser@example.org"))
        #expect(claims["sub"] == .string(user.id))
        #expect(claims["aud"] == .string("headless"))
        let binding = try #require(run.cookies["__Host-signet_fed"], "cookies: \(run.cookies.keys.sorted())")
        #expect(binding["sameSite"] == .string("None"))
        #expect(run.cookies["__Host-signet_session"] != nil)
        #expect(try fed.federationAudit() == [])
        #expect(fed.mock.requestCount("/authorize") == 1)
    }

    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func appleFormPostAcrossSitesReachesTheLinkPageAndLinksAfterThePassword() async throws {
        try RealPart.chromium.use()
        let fed = try Federated(.apple, user: MockUser(email: Interactive.email), tlsHost: Self.host)
        defer { fed.stop() }
        let run = try await run(fed, password: Interactive.password)
        #expect(run.result["linkPage"] == .bool(true))
        #expect(run.query["iss"] == .string(fed.server.issuer))
        let claims = try run.idTokenClaims()
        #expect(claims["sub"] == .string(fed.interactive.user.id))
        #expect(claims["amr"] == .array([.string("fed"), .string("pwd")]))
        #expect(try fed.counts() == (users: 1, links: 1))
        #expect(run.cookies["__Host-signet_link"] == nil)
    }
}

/// Another Signet as the upstream `oidc` provider, served over https with a certificate from a
/// private CA that only the connection's `ca_file` trusts; the whole dance in Chromium.
@Suite("another Signet behind a private CA as the upstream provider", .serialized, .endToEndLimit) struct PrivateCAUpstreamTests {
    @Test(.enabled(if: RealPart.chromium.canRun, RealPart.chromium.skipComment))
    func signInThroughAnUpstreamSignetTrustedOnlyByTheConnectionsCAFile() async throws {
        try RealPart.chromium.use()
        // The upstream: a Signet on https with a self-signed certificate (its own private CA),
        // a user whose email it vouches for, and a confidential client for the downstream.
        let upstream = try Interactive(tlsHost: "localhost")
        defer { upstream.stop() }
        let certificate = try #require(upstream.server.configuration.http.tlsCertificateFile)
        let storage = upstream.server.environment.storage
        let corpUser = try upstream.server.environment.makeUserService().create(email: "corp.user@example.org", name: "Corp User",
                                                                                 password: "corp user password")
        try storage.users.updateProfile(userID: corpUser.id, name: "Corp User", givenName: nil, familyName: nil, emailVerified: true,
                                        now: upstream.server.clock.now)
        let registered = try ClientRegistration(server: upstream.server.application.authorizationServer).register(ClientSpec(
            id: "downstream", name: "Downstream Signet", isPublic: false, redirectURIs: ["https://placeholder.example/cb"],
            scope: "openid email profile", firstParty: true, authenticationMethod: "client_secret_basic"))
        let secrets = try TemporaryDirectory(prefix: "upstream-secret")
        defer { secrets.remove() }
        let secretPath = try secrets.write(try #require(registered.secret), to: "secret")

        // The downstream: a connection configured from the upstream's issuer, trusting its CA.
        let connection = Connection(id: "corp", type: .oidc, clientID: "downstream", displayName: "Corp SSO",
                                    issuer: upstream.server.issuer, trustedCertificatesFile: certificate)
        let downstream = try Interactive { configuration in
            configuration.connections = [ConfiguredConnection(connection: connection, clientSecret: .file(secretPath))]
        }
        defer { downstream.stop() }
        var client = try #require(try storage.clients.client(id: "downstream"))
        client.redirectURIs = [downstream.server.issuer + Routes.federationCallbackPrefix + "corp"]
        try storage.clients.upsertClient(client)

        let run = try await FederationBrowserTests().run(downstream, connection: "Corp SSO", extra: [
            "SIGNET_UPSTREAM_ORIGIN": upstream.server.issuer, "SIGNET_UPSTREAM_EMAIL": "corp.user@example.org",
            "SIGNET_UPSTREAM_PASSWORD": "corp user password"])
        #expect(run.result["upstreamPage"]?.stringValue?.hasPrefix(upstream.server.issuer) == true, "\(run.result)")
        #expect(run.query["state"] == .string("st-123"))
        #expect(run.query["iss"] == .string(downstream.server.issuer))
        let claims = try run.idTokenClaims()
        #expect(claims["amr"] == .array([.string("fed")]))
        let user = try #require(try downstream.server.environment.storage.users.user(email: "corp.user@example.org"))
        #expect(claims["sub"] == .string(user.id))
        #expect(user.id != corpUser.id)
        let links = try downstream.server.environment.storage.users.federatedIdentities(userID: user.id)
        #expect(links.map(\.issuer) == [upstream.server.issuer])
        #expect(links.map(\.subject) == [corpUser.id])
    }

    @Test func withoutTheCAFileTheUpstreamIsNotTrusted() async throws {
        let upstream = try TestServer(tlsHost: "127.0.0.1")
        defer { upstream.stop() }
        let connection = Connection(id: "corp", type: .oidc, clientID: "downstream", issuer: upstream.issuer)
        let secrets = try TemporaryDirectory(prefix: "upstream-secret")
        defer { secrets.remove() }
        let secretPath = try secrets.write("not-used", to: "secret")
        let downstream = try Interactive { configuration in
            configuration.connections = [ConfiguredConnection(connection: connection, clientSecret: .file(secretPath))]
        }
        defer { downstream.stop() }
        let browser = FormBrowser()
        _ = try await browser.open(downstream.authorizeURL(pkce: PKCEPair.generate()))
        let started = try await browser.open(downstream.server.url(try Federated.providerLink(browser, connection: "corp")))
        #expect(started.status == 502)
        #expect(started.response.text.contains("Cannot reach"))
        // A ca_file that cannot be read stops the start.
        #expect(throws: ConfigurationIssue(path: "connections.corp.ca_file", message: "cannot read /nonexistent/ca.pem")) {
            _ = try Interactive { configuration in
                var unreadable = connection
                unreadable.trustedCertificatesFile = "/nonexistent/ca.pem"
                configuration.connections = [ConfiguredConnection(connection: unreadable, clientSecret: .file(secretPath))]
            }
        }
    }
}
