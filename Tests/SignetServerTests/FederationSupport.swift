import Foundation
import SignetCore
import SignetCrypto
import SignetFederation
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// A Signet TestServer wired to one MockProvider through a connection, plus the shared clients
/// and the password user of `Interactive`, and a `headless` client (public, first-party,
/// allow_headless).
struct Federated {
    let interactive: Interactive
    let mock: MockProvider
    let connectionID: String
    let secrets: TemporaryDirectory
    var server: TestServer { interactive.server }
    static let teamID = "TEAM123456"
    static let keyID = "KEY987"
    static let headlessRedirect = "com.example.headless:/callback"

    /// Starts the mock of `flavor` and a server with a connection `id` to it; `adjust` edits the
    /// connection (linking, domains, ...), `configure` the rest of the configuration.
    init(_ flavor: MockProviderFlavor, id: String? = nil, user: MockUser = MockUser(),
         adjust: (inout Connection) -> Void = { _ in }, extra: [ConfiguredConnection] = [], twin: String? = nil,
         tlsHost: String? = nil, adminListener: Bool = false, configure: (inout SignetConfiguration) -> Void = { _ in }) throws {
        let clock = TestServer.makeClock()
        let secrets = try TemporaryDirectory(prefix: "fed-secrets")
        let appleKey = try PrivateKey.generate(.p256)
        let applePublic = try VerificationKey(keyID: Self.keyID, algorithm: .es256, publicKey: appleKey.publicKey)
        let mockClientID = flavor == .apple ? "com.example.signin" : "mock-client"
        let validator: (@Sendable (String) -> Bool)? = flavor == .apple ? { @Sendable secret in
            Federated.isAppleClientSecret(secret, key: applePublic, clientID: mockClientID)
        } : nil
        let mock = try MockProvider(flavor: flavor, clientID: mockClientID, user: user, clock: { clock.now },
                                    clientSecretValidator: validator)
        let type: ConnectionType = switch flavor {
        case .google: .google
        case .apple: .apple
        case .github: .github
        case .generic: .oidc
        }
        let connectionID = id ?? flavor.rawValue
        var connection = Connection(id: connectionID, type: type, clientID: mock.clientID, issuer: mock.issuer)
        if flavor == .github {
            connection.authorizationEndpoint = mock.authorizationURL.absoluteString
            connection.tokenEndpoint = mock.tokenURL.absoluteString
            connection.apiBaseURL = mock.issuer
        }
        if flavor == .apple {
            connection.appleTeamID = Self.teamID
            connection.appleKeyID = Self.keyID
        }
        adjust(&connection)
        let secretPath = try secrets.write(mock.clientSecret, to: "client-secret")
        let pem = "-----BEGIN PRIVATE KEY-----\n" + Data(appleKey.pkcs8DER).base64EncodedString(options: [.lineLength64Characters])
            + "\n-----END PRIVATE KEY-----\n"
        let keyPath = try secrets.write(pem, to: "apple.p8")
        let configured = flavor == .apple
            ? ConfiguredConnection(connection: connection, privateKey: .file(keyPath))
            : ConfiguredConnection(connection: connection, clientSecret: .file(secretPath))
        var twins: [ConfiguredConnection] = []
        if let twin {
            var copy = configured
            copy.connection.id = twin
            twins.append(copy)
        }
        interactive = try Interactive(tlsHost: tlsHost, adminListener: adminListener) { configuration in
            configuration.connections = [configured] + twins + extra
            configure(&configuration)
        }
        // Stay in step with the server's clock, which Interactive moved on by a second.
        self.mock = mock
        self.connectionID = connectionID
        self.secrets = secrets
        let now = server.clock.now
        try server.environment.storage.clients.upsertClient(ClientRecord(
            id: "headless", name: "Headless App", isPublic: true, firstParty: true, redirectURIs: [Self.headlessRedirect],
            allowedScopes: ["openid", "profile", "email", "offline_access"], grantTypes: ["authorization_code", "refresh_token"],
            tokenEndpointAuthMethod: "none", allowHeadless: true, createdAt: now, updatedAt: now))
        _ = clock
    }

    func stop() {
        interactive.stop()
        mock.stop()
        secrets.remove()
    }

    /// Checks an Apple client secret as Apple would: ES256 by our key, iss, sub, aud, exp.
    static func isAppleClientSecret(_ jwt: String, key: VerificationKey, clientID: String) -> Bool {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3, let header = Base64URL.decode(String(parts[0])),
              let headerJSON = try? JSONValue.parse(header, maximumDepth: 4).objectValue,
              headerJSON["kid"]?.stringValue == keyID, headerJSON["alg"]?.stringValue == "ES256",
              let payload = Base64URL.decode(String(parts[1])), let claims = try? JSONValue.parse(payload, maximumDepth: 4).objectValue,
              let signature = Base64URL.decode(String(parts[2])) else { return false }
        let input = Array((parts[0] + "." + parts[1]).utf8)
        guard key.publicKey.verify(signature: signature, message: input, algorithm: .es256) else { return false }
        guard let iat = claims["iat"]?.intValue, let exp = claims["exp"]?.intValue, exp > iat, exp - iat <= 15_777_000 else { return false }
        return claims["iss"]?.stringValue == teamID && claims["sub"]?.stringValue == clientID
            && claims["aud"]?.stringValue == "https://appleid.apple.com"
    }

    /// A browser that follows redirects to the mock provider too.
    func browser() -> FormBrowser {
        let browser = FormBrowser()
        browser.trust(mock.baseURL)
        return browser
    }

    /// The provider link for `connection` on the sign-in page the browser is on.
    static func providerLink(_ browser: FormBrowser, connection: String) throws -> String {
        let text = browser.page?.text ?? ""
        for piece in text.components(separatedBy: "href=\"").dropFirst() {
            guard let end = piece.firstIndex(of: "\"") else { continue }
            let href = String(piece[..<end]).replacingOccurrences(of: "&amp;", with: "&")
            if href.hasPrefix(Routes.federationStart), href.contains("connection=\(connection)&") { return href }
        }
        throw TestingError("no provider link for \(connection) on the page")
    }

    /// Opens /authorize for the native client and clicks the provider's button. Returns where the
    /// browser stopped: the app's redirect, or a page (Apple's form_post page, an error page).
    func start(_ browser: FormBrowser, pkce: PKCEPair, connection: String? = nil) async throws -> BrowserOutcome {
        let page = try await browser.open(interactive.authorizeURL(pkce: pkce))
        #expect(page.status == 200)
        let link = try Self.providerLink(browser, connection: connection ?? connectionID)
        return try await browser.open(server.url(link))
    }

    /// The whole browser dance to the app's redirect (submitting Apple's form_post page).
    func signIn(_ browser: FormBrowser, pkce: PKCEPair) async throws -> BrowserOutcome {
        let outcome = try await start(browser, pkce: pkce)
        if mock.flavor == .apple, outcome.redirect == nil, !outcome.forms.isEmpty {
            return try await browser.submit(formIndex: 0)
        }
        return outcome
    }

    /// Starts the flow in a browser that trusts only Signet, lets the mock approve, and returns
    /// the provider's callback URL (to Signet) without following it.
    func callbackURL(_ browser: FormBrowser, pkce: PKCEPair) async throws -> URL {
        let page = try await browser.open(interactive.authorizeURL(pkce: pkce))
        #expect(page.status == 200)
        let link = try Self.providerLink(browser, connection: connectionID)
        let toProvider = try await browser.open(server.url(link)).requireRedirect()
        let approved = try await HTTPTestClient(cookies: browser.cookies).get(try #require(toProvider.url))
        return try #require(approved.location.flatMap(URL.init(string:)))
    }

    /// Starts (and abandons) one flow so Signet has fetched the discovery document, so later
    /// misbehaviour hits the callback leg rather than the start.
    func warmUp() async throws {
        let browser = FormBrowser()
        _ = try await browser.open(interactive.authorizeURL(pkce: PKCEPair.generate()))
        _ = try await browser.open(server.url(try Self.providerLink(browser, connection: connectionID))).requireRedirect()
    }

    /// Checks the app's redirect (its callback, `state`, `iss`), redeems the code and returns the
    /// ID token's claims.
    func redeem(_ outcome: BrowserOutcome, pkce: PKCEPair, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> [String: JSONValue] {
        let redirect = try outcome.requireRedirect()
        let query = try redirect.query()
        #expect(redirect.base == Interactive.callback, sourceLocation: sourceLocation)
        #expect(query["state"] == "st-123", sourceLocation: sourceLocation)
        #expect(query["iss"] == server.issuer, sourceLocation: sourceLocation)
        let token = try await interactive.redeem(code: try query.single("code"), pkce: pkce)
        #expect(token.status == 200, sourceLocation: sourceLocation)
        let idToken = try #require(try token.json()["id_token"]?.stringValue, sourceLocation: sourceLocation)
        let payload = try #require(Base64URL.decode(String(idToken.split(separator: ".")[1])), sourceLocation: sourceLocation)
        return try #require(try JSONValue.parse(payload, maximumDepth: 8).objectValue, sourceLocation: sourceLocation)
    }

    /// The federation audit events the server recorded, oldest first, each as its name plus
    /// `:reason` when it has one (`federation_failed:invalid_id_token`,
    /// `federation_browser_mismatch`); `federation_started`/`_launched` are left out.
    func federationAudit() throws -> [String] {
        try server.environment.storage.audit.recentAudit(limit: 1000).reversed().compactMap { event in
            guard event.event.hasPrefix("federation_"), event.event != "federation_started", event.event != "federation_launched"
            else { return nil }
            return event.reason.map { event.event + ":" + $0 } ?? event.event
        }
    }

    /// Starts a headless request for the `headless` client and its provider transaction;
    /// returns the `authorizationUrl` (Signet's launch URL) to open in "the system browser".
    func headlessAuthorizationURL(pkce: PKCEPair, client: String = "headless", redirect: String = Federated.headlessRedirect)
        async throws -> URL {
        let http = HTTPTestClient()
        let started = try await http.post(server.url(Routes.headlessStart), json: .object([
            "responseType": .string("code"), "clientId": .string(client), "redirectUri": .string(redirect),
            "state": .string("app-state"), "scope": .string("openid profile email offline_access"),
            "codeChallenge": .string(pkce.challenge), "codeChallengeMethod": .string("S256")]))
        #expect(started.status == 200)
        let requestID = try #require(try started.json()["requestId"]?.stringValue)
        let provider = try await http.post(server.url(Routes.headlessProviderStart),
                                           json: .object(["requestId": .string(requestID), "connection": .string(connectionID)]))
        #expect(provider.status == 200)
        return try #require(try provider.json()["authorizationUrl"]?.stringValue.flatMap(URL.init(string:)))
    }

    /// The users and federated identities in the store.
    func counts() throws -> (users: Int, links: Int) {
        let users = try server.environment.storage.users.allUsers()
        let links = try users.reduce(0) { $0 + (try server.environment.storage.users.federatedIdentities(userID: $1.id).count) }
        return (users.count, links)
    }
}

/// Expects the app's redirect to carry an error with `state` and `iss`.
func expectAppError(_ outcome: BrowserOutcome, _ code: String, server: TestServer,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
    let redirect = try outcome.requireRedirect()
    #expect(redirect.base == Interactive.callback, sourceLocation: sourceLocation)
    let query = try redirect.query()
    #expect(query["error"] == code, sourceLocation: sourceLocation)
    #expect(query["state"] == "st-123", sourceLocation: sourceLocation)
    #expect(query["iss"] == server.issuer, sourceLocation: sourceLocation)
    #expect(query["code"] == nil, sourceLocation: sourceLocation)
}
