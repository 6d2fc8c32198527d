import Foundation
import SignetCrypto
import SignetFederation
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// Signet's generic `oidc` connection against an OpenID provider Signet's authors did not write
/// (`IndependentProvider`: oidc-provider-mock, Flask + Authlib), set up as a new user would: the
/// provider gets a client registered with Signet's callback URL, and `signet.json` names only the
/// provider's issuer, the client id and the secret — everything else comes from the discovery
/// document. The real `signet serve` runs it; a browser goes app → Signet → provider → Signet →
/// app, and the app redeems its code at Signet's `/token`.
@Suite(.endToEndLimit) struct IndependentProviderTests {
    static let connection = "indie"
    static let twin = "indie-twin"
    static let appCallback = "http://127.0.0.1:49152/callback"   // any loopback port matches (RFC 8252 §7.3)

    /// The provider, Signet (the binary, configured from a file) and the app's side of the flow.
    struct Setup {
        let provider: IndependentProvider
        let signet: BinaryServer
        let folder: TemporaryDirectory
        let configPath: String
        let clientID: String

        /// Starts both, with two connections (`indie` and its twin) to the same provider and
        /// client. `registered` is how the client authenticates at the provider's token endpoint;
        /// `configured` what `signet.json` says (nil: nothing, the default).
        static func start(registered: String = "client_secret_basic", configured: String? = nil) async throws -> Setup {
            let provider = try await IndependentProvider.start(requireRegistration: true, requireNonce: true)
            var failure: Error?
            // Signet's port is chosen first: the provider needs the callback URL before Signet
            // gets the client id. A port taken in between is retried with another.
            for _ in 0..<3 {
                let folder = try TemporaryDirectory(prefix: "independent")
                let port = try FreePort.pick()
                let issuer = "http://127.0.0.1:\(port)"
                let callbacks = [connection, twin].map { issuer + Routes.federationCallbackPrefix + $0 }
                let client = try await provider.registerClient(redirectURIs: callbacks, authenticationMethod: registered)
                let secretPath = try folder.write(client.clientSecret, to: "provider-secret")
                // Only what a new user would write: the issuer, the client id, the secret.
                var config: JSONValue = [
                    "log": ["requests": true],   // request lines, so expectQuietLogs has a log to search
                    "issuer": .string(issuer),
                    "listen": [.string("127.0.0.1:\(port)")],
                    "data_dir": .string(folder.appending("data")),
                    "clients": [[
                        "id": "native", "type": "public", "first_party": true,
                        "redirect_uris": ["http://127.0.0.1/callback"],
                    ]],
                    "connections": [
                        ["id": .string(connection), "type": "oidc", "display_name": "Independent OP",
                         "issuer": .string(provider.issuer), "client_id": .string(client.clientID),
                         "client_secret": .string("file:" + secretPath)],
                        ["id": .string(twin), "type": "oidc", "issuer": .string(provider.issuer),
                         "client_id": .string(client.clientID), "client_secret": .string("file:" + secretPath)],
                    ],
                ]
                if let configured, case .object(var root) = config, case .array(var connections)? = root["connections"] {
                    for index in connections.indices {
                        if case .object(var entry) = connections[index] {
                            entry["token_endpoint_auth_method"] = .string(configured)
                            connections[index] = .object(entry)
                        }
                    }
                    root["connections"] = .array(connections)
                    config = .object(root)
                }
                let configPath = try folder.write(String(decoding: config.serialized(), as: UTF8.self), to: "signet.json")
                do {
                    let signet = try await TestServer.launchBinary(arguments: ["--config", configPath],
                                                                   dataDirectory: folder.appending("data"),
                                                                   listen: "127.0.0.1:\(port)")
                    return Setup(provider: provider, signet: signet, folder: folder, configPath: configPath, clientID: client.clientID)
                } catch {
                    failure = error
                    folder.remove()
                    guard "\(error)".contains("(exited)") else { break }
                }
            }
            await provider.stop()
            throw failure ?? TestingError("signet did not start")
        }

        func stop() async {
            await signet.stop()
            await provider.stop()
            folder.remove()
        }

        /// Starts both (see `start`), runs `body`, and stops both whatever happens.
        static func run(registered: String = "client_secret_basic", configured: String? = nil,
                        _ body: (Setup) async throws -> Void) async throws {
            let setup = try await start(registered: registered, configured: configured)
            do {
                try await body(setup)
            } catch {
                await setup.stop()
                throw error
            }
            await setup.stop()
        }

        /// The app's authorization request at Signet.
        func authorizeURL(pkce: PKCEPair, state: String, nonce: String) -> URL {
            signet.url(Routes.authorize + "?" + URLQuery.encode([
                ("response_type", "code"), ("client_id", "native"), ("redirect_uri", IndependentProviderTests.appCallback),
                ("scope", "openid profile email"), ("state", state), ("nonce", nonce),
                ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
            ]))
        }

        /// Opens the app's request and clicks the provider's button; returns the outcome (the
        /// provider's page when the browser trusts the provider, else the redirect to it).
        func start(_ browser: FormBrowser, pkce: PKCEPair, state: String = "st-1", nonce: String = "app-nonce-1",
                   connection: String = IndependentProviderTests.connection) async throws -> BrowserOutcome {
            let page = try await browser.open(authorizeURL(pkce: pkce, state: state, nonce: nonce))
            #expect(page.status == 200)
            let link = try Federated.providerLink(browser, connection: connection)
            return try await browser.open(signet.url(link))
        }

        /// Signet's output (its log) so far holds none of `secrets`: no code, token, state, nonce,
        /// email, subject or client secret is ever logged.
        func expectQuietLogs(_ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
            let log = signet.stdout + signet.stderr
            // A search of an empty log proves nothing: the request lines of the flow must be there.
            #expect(log.contains("GET /authorize ") && log.contains("GET /oauth2/callback/\(IndependentProviderTests.connection) "),
                    "the log has no request lines to search:\n\(log.prefix(1000))", sourceLocation: sourceLocation)
            for secret in secrets where !secret.isEmpty {
                #expect(!log.contains(secret), "the log holds a secret (\(secret.prefix(4))…)", sourceLocation: sourceLocation)
            }
        }

        /// A browser that follows redirects to the provider too.
        func browser() -> FormBrowser {
            let browser = FormBrowser()
            browser.trust(provider.baseURL)
            return browser
        }

        /// The whole dance for `sub`: start, type the sub on the provider's page, back through
        /// Signet to the app.
        func signIn(_ browser: FormBrowser, sub: String, pkce: PKCEPair, state: String = "st-1",
                    nonce: String = "app-nonce-1") async throws -> BrowserOutcome {
            let page = try await start(browser, pkce: pkce, state: state, nonce: nonce)
            #expect(page.status == 200, "the provider's authorization page: \(page.response)")
            return try await browser.submit(formIndex: 0, fields: ["sub": sub])
        }

        /// Starts in a browser that trusts only Signet, approves at the provider directly, and
        /// returns the provider's redirect to Signet's callback without following it.
        func callbackURL(_ browser: FormBrowser, sub: String, pkce: PKCEPair) async throws -> URL {
            let toProvider = try await start(browser, pkce: pkce).requireRedirect()
            let authorize = try #require(toProvider.url)
            #expect(authorize.absoluteString.hasPrefix(provider.issuer + "/"))
            let approved = try await HTTPTestClient().post(authorize, form: [("sub", sub)])
            #expect(approved.status == 302)
            return try #require(approved.location.flatMap(URL.init(string:)))
        }

        /// Redeems the app's code at Signet's /token.
        func redeem(_ code: String, pkce: PKCEPair) async throws -> TestResponse {
            try await HTTPTestClient().post(signet.url(Routes.token), form: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", IndependentProviderTests.appCallback),
                ("client_id", "native"), ("code_verifier", pkce.verifier)])
        }

        /// Signet's users as `signet users list` prints them: (sub, email).
        func users() async throws -> [(sub: String, email: String)] {
            let result = try await SignetBinary.run(["users", "list", "--config", configPath, "--data", folder.appending("data")])
            #expect(result.status == 0, "\(result)")
            return result.stdout.split(separator: "\n").dropFirst().compactMap { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return fields.count == 3 ? (String(fields[0]), String(fields[2])) : nil
            }
        }
    }

    /// Checks the app's redirect, redeems the code, checks Signet's ID token, and returns its `sub`.
    static func completes(_ setup: Setup, _ outcome: BrowserOutcome, pkce: PKCEPair, upstreamSub: String,
                          state: String = "st-1", nonce: String = "app-nonce-1") async throws -> String {
        let redirect = try outcome.requireRedirect()
        #expect(redirect.base == appCallback)
        let query = try redirect.query()
        #expect(query["state"] == state)
        #expect(query["iss"] == setup.signet.issuer)
        #expect(query["error"] == nil, "\(query)")
        let token = try await setup.redeem(try query.single("code"), pkce: pkce)
        #expect(token.status == 200, "\(token)")
        let body = try token.json()
        let idToken = try #require(body["id_token"]?.stringValue)
        let accessToken = try #require(body["access_token"]?.stringValue)

        // Signet's ID token, checked by an independent JOSE library against Signet's JWKS.
        let jwks = try await HTTPTestClient().get(setup.signet.url(Routes.jwks))
        let verified = try await JWCrypto.verify(tokens: [idToken], jwks: jwks.body)
        #expect(verified.first?.ok == true, "\(verified)")
        let claims = try #require(verified.first?.claims)
        #expect(claims["iss"]?.stringValue == setup.signet.issuer)
        #expect(claims["aud"] == .string("native") || claims["aud"] == .array(["native"]))
        #expect(claims["nonce"]?.stringValue == nonce)
        #expect(claims["amr"] == .array([.string("fed")]))
        let sub = try #require(claims["sub"]?.stringValue)
        // Signet's own user, never the provider's subject.
        #expect(sub != upstreamSub)

        // Userinfo agrees, with the email the provider vouched for.
        let userinfo = try await HTTPTestClient().get(setup.signet.url(Routes.userinfo),
                                                      headers: ["Authorization": "Bearer \(accessToken)"])
        #expect(userinfo.status == 200, "\(userinfo)")
        #expect(try userinfo.json()["sub"]?.stringValue == sub)
        setup.expectQuietLogs([try query.single("code"), idToken, accessToken, state, nonce, upstreamSub])
        return sub
    }

    @Test func freshSignUpThenReturningSignInAreTheSameSignetUser() async throws {
        try await Setup.run { setup in
            try await setup.provider.setUser("ada-upstream-1", claims: [
                "email": "ada@example.net", "email_verified": true, "name": "Ada Independent"])

            let firstPKCE = PKCEPair.generate()
            let first = try await setup.signIn(setup.browser(), sub: "ada-upstream-1", pkce: firstPKCE)
            let sub = try await Self.completes(setup, first, pkce: firstPKCE, upstreamSub: "ada-upstream-1")
            let users = try await setup.users()
            #expect(users.count == 1)
            #expect(users.first?.sub == sub)
            #expect(users.first?.email == "ada@example.net")

            // Returning, in a fresh browser (no Signet session): the same Signet user, no new account.
            let secondPKCE = PKCEPair.generate()
            let second = try await setup.signIn(setup.browser(), sub: "ada-upstream-1", pkce: secondPKCE,
                                                state: "st-2", nonce: "app-nonce-2")
            let again = try await Self.completes(setup, second, pkce: secondPKCE, upstreamSub: "ada-upstream-1",
                                                 state: "st-2", nonce: "app-nonce-2")
            #expect(again == sub)
            #expect(try await setup.users().count == 1)

            // Another upstream subject is another Signet user.
            try await setup.provider.setUser("bob-upstream-2", claims: ["email": "bob@example.net", "email_verified": true])
            let thirdPKCE = PKCEPair.generate()
            let third = try await setup.signIn(setup.browser(), sub: "bob-upstream-2", pkce: thirdPKCE)
            let other = try await Self.completes(setup, third, pkce: thirdPKCE, upstreamSub: "bob-upstream-2")
            #expect(other != sub)
            #expect(try await setup.users().count == 2)
            // Every ID token carried email and email_verified: no userinfo call was needed.
            #expect(await setup.provider.waitForRequests("POST", "/oauth2/token", status: 200, count: 3) == 3)
            #expect(setup.provider.requestCount("GET", "/userinfo", status: 200) == 0)
            let clientSecret = try String(contentsOfFile: setup.folder.appending("provider-secret"), encoding: .utf8)
            setup.expectQuietLogs(["ada@example.net", "bob@example.net", "Ada Independent", clientSecret])
        }
    }

    @Test func anUnverifiedOrUnstatedEmailIsRefused() async throws {
        try await Setup.run { setup in
            try await setup.provider.setUser("eve-upstream-1", claims: ["email": "eve@example.net", "email_verified": false])
            // The provider's own default for a subject typed on its page: an email, no email_verified.
            for sub in ["eve-upstream-1", "mallory@example.net"] {
                let outcome = try await setup.signIn(setup.browser(), sub: sub, pkce: PKCEPair.generate())
                let redirect = try outcome.requireRedirect()
                #expect(redirect.base == Self.appCallback)
                let query = try redirect.query()
                #expect(query["error"] == "access_denied")
                #expect(query["error_description"] == FederationError.emailNotVerified.publicMessage)
                #expect(query["state"] == "st-1")
                #expect(query["iss"] == setup.signet.issuer)
                #expect(query["code"] == nil)
            }
            #expect(try await setup.users().isEmpty)
            // The second ID token names an email but not email_verified, so Signet asked userinfo.
            #expect(await setup.provider.waitForRequests("GET", "/userinfo", status: 200) == 1)
        }
    }

    @Test func aReplayedCallbackIsRefused() async throws {
        try await Setup.run { setup in
            try await setup.provider.setUser("ada-upstream-1", claims: ["email": "ada@example.net", "email_verified": true])
            let browser = FormBrowser()
            let pkce = PKCEPair.generate()
            let callback = try await setup.callbackURL(browser, sub: "ada-upstream-1", pkce: pkce)
            #expect(callback.absoluteString.hasPrefix(setup.signet.issuer + Routes.federationCallbackPrefix + Self.connection + "?"))
            _ = try await Self.completes(setup, try await browser.open(callback), pkce: pkce, upstreamSub: "ada-upstream-1")

            let replay = try await browser.open(callback)
            #expect(replay.redirect == nil)
            #expect(replay.status == 400)
            #expect(replay.response.text.contains("expired or was already used"))
            #expect(try await setup.users().count == 1)
        }
    }

    @Test func aCallbackToAnotherConnectionOrWithoutTheBrowserCookieIsRefusedAndLeavesTheSignIn() async throws {
        try await Setup.run { setup in
            try await setup.provider.setUser("ada-upstream-1", claims: ["email": "ada@example.net", "email_verified": true])
            let browser = FormBrowser()
            let pkce = PKCEPair.generate()
            let callback = try await setup.callbackURL(browser, sub: "ada-upstream-1", pkce: pkce).absoluteString

            // The same answer delivered to the twin connection (same provider, same client): refused.
            let toTwin = try #require(URL(string: callback.replacingOccurrences(
                of: Routes.federationCallbackPrefix + Self.connection + "?", with: Routes.federationCallbackPrefix + Self.twin + "?")))
            let wrong = try await browser.open(toTwin)
            #expect(wrong.redirect == nil)
            #expect(wrong.status == 400)
            #expect(wrong.response.text.contains("does not belong to this provider"))

            // Without the browser-binding cookie (another browser): refused.
            let elsewhere = try await HTTPTestClient().get(try #require(URL(string: callback)))
            #expect(elsewhere.status == 403)
            #expect(elsewhere.location == nil)

            // Neither consumed the sign-in: the right browser still completes it.
            _ = try await Self.completes(setup, try await browser.open(try #require(URL(string: callback))),
                                         pkce: pkce, upstreamSub: "ada-upstream-1")
            #expect(try await setup.users().count == 1)
        }
    }

    @Test func clientSecretPostWorksWhenTheProviderWantsIt() async throws {
        try await Setup.run(registered: "client_secret_post", configured: "client_secret_post") { setup in
            try await setup.provider.setUser("ada-upstream-1", claims: ["email": "ada@example.net", "email_verified": true])
            let pkce = PKCEPair.generate()
            let outcome = try await setup.signIn(setup.browser(), sub: "ada-upstream-1", pkce: pkce)
            _ = try await Self.completes(setup, outcome, pkce: pkce, upstreamSub: "ada-upstream-1")
        }
    }

    /// The provider refuses Signet at its token endpoint (here: the client is registered for
    /// client_secret_post, Signet sends client_secret_basic): the app gets `access_denied` with
    /// its `state` and Signet's `iss`, and no account is made.
    @Test func aRefusalAtTheProvidersTokenEndpointIsAccessDeniedAtTheApp() async throws {
        try await Setup.run(registered: "client_secret_post") { setup in
            try await setup.provider.setUser("ada-upstream-1", claims: ["email": "ada@example.net", "email_verified": true])
            let outcome = try await setup.signIn(setup.browser(), sub: "ada-upstream-1", pkce: PKCEPair.generate())
            let redirect = try outcome.requireRedirect()
            #expect(redirect.base == Self.appCallback)
            let query = try redirect.query()
            #expect(query["error"] == "access_denied")
            #expect(query["error_description"] == FederationError.upstreamRejected("").publicMessage)
            #expect(query["state"] == "st-1")
            #expect(query["iss"] == setup.signet.issuer)
            #expect(query["code"] == nil)
            #expect(try await setup.users().isEmpty)
        }
    }

    /// The provider's Deny button answers `error=access_denied` WITHOUT the `state` it was sent
    /// (RFC 6749 §4.1.2.1 requires it), so Signet cannot tell which sign-in it belongs to: it
    /// shows a plain page and sends nothing to the app. With a provider that returns the state,
    /// the app gets `access_denied` with `state` and `iss` (FederationBadInputTests).
    @Test func theProvidersDenialWithoutStateEndsOnSignetsPage() async throws {
        try await Setup.run { setup in
            let browser = setup.browser()
            let page = try await setup.start(browser, pkce: PKCEPair.generate())
            #expect(page.status == 200)
            let outcome = try await browser.submit(formIndex: 1, pressing: "action")
            #expect(outcome.redirect == nil)
            let landed = try #require(outcome.history.last)
            #expect(landed.absoluteString.hasPrefix(setup.signet.issuer + Routes.federationCallbackPrefix + Self.connection + "?"))
            let query = try URLQuery(queryOf: landed.absoluteString)
            #expect(query["error"] == "access_denied")
            #expect(query["state"] == nil)
            #expect(outcome.status == 400)
            #expect(outcome.response.text.contains("does not belong to a sign-in started here"))
            #expect(try await setup.users().isEmpty)
        }
    }
}
