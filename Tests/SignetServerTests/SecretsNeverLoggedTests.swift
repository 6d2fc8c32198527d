import Foundation
import SignetClientCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetMockProvider
@testable import SignetServer
import SignetTesting
import Testing

/// Every flow against the real `signet serve` with its most verbose log (`log.requests`: one line
/// per request), then a search of everything the process printed for every secret the test
/// handled — codes, tokens, verifiers, nonces, states, passwords, the client secret, emails, the
/// callback URLs — as sent and in their percent-encoded, base64url and base64 forms. Zero hits.
@Suite(.endToEndLimit) struct SecretsNeverLoggedTests {
    static let tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// The secrets seen so far, each in every form a log line could carry it.
    final class Secrets: @unchecked Sendable {
        private(set) var values: [(label: String, value: String)] = []
        func note(_ label: String, _ value: String?) {
            guard let value, value.utf8.count >= 6 else { return }
            let forms = [value, FormEncoding.encodeComponent(value), Base64URL.encode(Array(value.utf8)),
                         Data(value.utf8).base64EncodedString()]
            for form in Set(forms) { values.append((label, form)) }
        }
    }

    static func random(_ prefix: String) -> String { prefix + RandomToken.make(byteCount: 12) }

    @Test func noFlowLogsAnySecret() async throws {
        let folder = try TemporaryDirectory(prefix: "secrets")
        defer { folder.remove() }
        let data = folder.appending("data")
        let secrets = Secrets()
        let email = "alice.\(RandomToken.make(byteCount: 6).lowercased())@example.com"
        let password = Self.random("pw-")
        let wrongPassword = Self.random("wrong-")
        secrets.note("email", email)
        secrets.note("password", password)
        secrets.note("wrong password", wrongPassword)

        // The CLI: a user and a confidential client, before the server starts.
        let added = try await SignetBinary.run(["users", "add", email, "--password-stdin", "--data", data], stdin: Array((password + "\n").utf8))
        #expect(added.succeeded, "\(added)")
        let client = try await SignetBinary.run(["clients", "add", "svc", "--confidential", "--grant-type", "client_credentials",
                                                 "--scope", "api.read", "--data", data])
        #expect(client.succeeded, "\(client)")
        let clientSecret = try #require(APIClientsCLITests.secret(in: client.stdout))
        secrets.note("client secret", clientSecret)
        let listed = try await SignetBinary.run(["users", "list", "--data", data])
        let shown = try await SignetBinary.run(["clients", "show", "svc", "--data", data])
        for result in [added, listed, shown] {
            #expect(!(result.stdout + result.stderr).contains(password) && !(result.stdout + result.stderr).contains(clientSecret))
        }

        // The upstream provider (mock Google) for the federated and native ID-token sign-ins.
        let upstreamSecret = Self.random("upstream-")
        secrets.note("upstream client secret", upstreamSecret)
        let google = try MockProvider(flavor: .google, clientID: "web-client", clientSecret: upstreamSecret,
                                      user: MockUser(subject: Self.random("sub-"), email: "gail.\(RandomToken.make(byteCount: 6).lowercased())@example.com",
                                                     name: "Gail"))
        defer { google.stop() }
        secrets.note("upstream email", google.user.email)
        let upstreamSecretPath = try folder.write(upstreamSecret, to: "google-secret")
        let config: JSONValue = [
            "log": ["requests": true],
            "clients": [
                ["id": "native", "type": "public", "first_party": true, "redirect_uris": ["http://127.0.0.1/callback"],
                 "post_logout_redirect_uris": ["com.example.native:/logged-out"],
                 "grant_types": ["authorization_code", "refresh_token", .string(Self.tokenExchange)]],
                ["id": "third", "type": "public", "redirect_uris": ["com.example.third:/cb"]],
            ],
            "connections": [[
                "id": "google", "type": "google", "issuer": .string(google.issuer), "client_id": "web-client",
                "client_secret": .string("file:" + upstreamSecretPath),
                "native_client_ids": ["native-android-client"], "native_sign_in": true,
            ]],
        ]
        let configPath = try folder.write(String(decoding: config.serialized(), as: UTF8.self), to: "signet.json")
        let signet = try await TestServer.launchBinary(arguments: ["--config", configPath], dataDirectory: data)
        let log: String
        let errorLines: [Substring]
        do {
            try await runFlows(signet, google: google, email: email, password: password, wrongPassword: wrongPassword,
                               clientSecret: clientSecret, secrets: secrets)
            let stopped = await signet.stop()
            log = stopped.result.stdout + stopped.result.stderr
            errorLines = stopped.result.stderr.split(separator: "\n")
        } catch {
            _ = await signet.stop()
            throw error
        }

        // The log is there and has request lines: a search of an empty log would prove nothing.
        #expect(log.contains("POST /token 200"), "no request lines in the log:\n\(log.prefix(2000))")
        #expect(log.contains("GET /authorize 303"))
        #expect(log.contains("POST /signin "))
        #expect(log.contains("GET /oauth2/callback/google "))
        #expect(secrets.values.count > 40)
        for (label, value) in secrets.values {
            #expect(!log.contains(value), "the log holds the \(label) (\(value.prefix(4))…)")
        }
        // logging.format json (the default): every line on standard error is one JSON object.
        for line in errorLines { #expect((try? JSONValue.parse(String(line)).objectValue) != nil, "not JSON: \(line.prefix(200))") }

        // The audit trail of all of it: every flow left its event, the chain verifies, and no
        // stored event holds a secret or an email (the users' and the provider's included).
        let audit = try await SignetBinary.run(["audit", "list", "--limit", "100000", "--data", data])
        #expect(audit.status == 0, "\(audit)")
        let names = Set(audit.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(String($0))["event"]?.stringValue })
        for expected in ["client_created", "user_created", "sign_in_failed", "sign_in", "consent_given",
                         "token_revoked", "session_ended", "federated_user_created", "native_sign_in", "code_replay"] {
            #expect(names.contains(expected), "no \(expected) event in \(names.sorted())")
        }
        for (label, value) in secrets.values {
            #expect(!audit.stdout.contains(value), "the audit trail holds the \(label) (\(value.prefix(4))…)")
        }
        let verified = try await SignetBinary.run(["audit", "verify", "--data", data])
        #expect(verified.status == 0, "\(verified)")
        // On disk, only hashes of the bearer secrets: no code, refresh token, password, client
        // secret or session cookie in the database or its WAL (emails, states and nonces are kept
        // in the clear on purpose: they are shown or sent back).
        var stored = ""
        for name in (try? FileManager.default.contentsOfDirectory(atPath: data)) ?? [] where name.hasPrefix("signet.db") {
            stored += String(decoding: (FileManager.default.contents(atPath: data + "/" + name) ?? Data()), as: UTF8.self)
        }
        #expect(stored.contains(email), "the search does not see the database's contents")
        let bearer = ["code", "refresh_token", "refreshed refresh_token", "exchanged refresh_token", "password",
                      "wrong password", "client secret", "wrong client secret", "cookie signet_session", "access_token"]
        for (label, value) in secrets.values where bearer.contains(label) {
            #expect(!stored.contains(value), "the database holds the \(label) in the clear (\(value.prefix(4))…)")
        }
    }

    func runFlows(_ signet: BinaryServer, google: MockProvider, email: String, password: String, wrongPassword: String,
                  clientSecret: String, secrets: Secrets) async throws {
        let http = HTTPTestClient()
        let basic: HTTPHeaders = ["Authorization": "Basic " + Data("svc:\(clientSecret)".utf8).base64EncodedString()]
        func authorize(_ client: String, redirect: String, pkce: PKCEPair, state: String, nonce: String) -> URL {
            signet.url(Routes.authorize + "?" + URLQuery.encode([
                ("response_type", "code"), ("client_id", client), ("redirect_uri", redirect),
                ("scope", "openid profile email offline_access"), ("state", state), ("nonce", nonce),
                ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]))
        }
        func note(_ pkce: PKCEPair, _ state: String, _ nonce: String) {
            secrets.note("verifier", pkce.verifier)
            secrets.note("state", state)
            secrets.note("nonce", nonce)
        }
        func redeem(_ outcome: BrowserOutcome, client: String, redirect: String, pkce: PKCEPair) async throws -> [String: JSONValue] {
            let target = try outcome.requireRedirect()
            secrets.note("callback URL", target.location)
            let code = try target.query().single("code")
            secrets.note("code", code)
            let response = try await http.post(signet.url(Routes.token), form: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
                ("client_id", client), ("code_verifier", pkce.verifier)])
            #expect(response.status == 200, "\(response)")
            let object = try #require(try response.json().objectValue)
            for name in ["access_token", "refresh_token", "id_token"] { secrets.note(name, object[name]?.stringValue) }
            var withCode = object
            withCode["code"] = .string(code)
            return withCode
        }
        // 1. Password sign-in for a third-party client, a wrong password first, then consent.
        let browser = FormBrowser()
        let pkce = PKCEPair.generate(), state = Self.random("st-"), nonce = Self.random("n-")
        note(pkce, state, nonce)
        #expect(try await browser.open(authorize("third", redirect: "com.example.third:/cb", pkce: pkce, state: state, nonce: nonce)).status == 200)
        let refused = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": email, "password": wrongPassword])
        #expect(refused.redirect == nil)
        _ = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": email, "password": password])
        for cookie in browser.cookies.all { secrets.note("cookie \(cookie.name)", cookie.value) }
        let consented = try await browser.submit(formWithAction: Routes.consent, pressing: "decision")
        let third = try await redeem(consented, client: "third", redirect: "com.example.third:/cb", pkce: pkce)
        let thirdAccess = try #require(third["access_token"]?.stringValue)
        // 2. userinfo, refresh (rotation), introspection, revocation.
        let userinfo = try await http.get(signet.url(Routes.userinfo), headers: ["Authorization": "Bearer \(thirdAccess)"])
        #expect(userinfo.status == 200, "\(userinfo)")
        let refresh = try #require(third["refresh_token"]?.stringValue)
        let rotated = try await http.post(signet.url(Routes.token), form: [("grant_type", "refresh_token"), ("refresh_token", refresh),
                                                                           ("client_id", "third")])
        #expect(rotated.status == 200, "\(rotated)")
        let rotatedObject = try #require(try rotated.json().objectValue)
        for name in ["access_token", "refresh_token", "id_token"] { secrets.note("refreshed " + name, rotatedObject[name]?.stringValue) }
        let introspected = try await http.post(signet.url(Routes.introspect), form: [("token", thirdAccess)], headers: basic)
        #expect(introspected.status == 200, "\(introspected)")
        let newRefresh = try #require(rotatedObject["refresh_token"]?.stringValue)
        #expect(try await http.post(signet.url(Routes.revoke), form: [("token", newRefresh), ("client_id", "third")]).status == 200)
        // The old refresh token again: reuse, refused with invalid_grant.
        let reused = try await http.post(signet.url(Routes.token), form: [("grant_type", "refresh_token"), ("refresh_token", refresh),
                                                                          ("client_id", "third")])
        #expect(reused.status == 400)
        // 3. The first-party client in the same browser (SSO), then logout with an id_token_hint.
        let pkce2 = PKCEPair.generate(), state2 = Self.random("st-"), nonce2 = Self.random("n-")
        note(pkce2, state2, nonce2)
        let sso = try await browser.open(authorize("native", redirect: "http://127.0.0.1:49152/callback", pkce: pkce2, state: state2, nonce: nonce2))
        let native = try await redeem(sso, client: "native", redirect: "http://127.0.0.1:49152/callback", pkce: pkce2)
        let idToken = try #require(native["id_token"]?.stringValue)
        let logoutState = Self.random("lo-")
        secrets.note("logout state", logoutState)
        let logoutPage = try await browser.open(signet.url(Routes.endSession + "?" + URLQuery.encode([
            ("id_token_hint", idToken), ("post_logout_redirect_uri", "com.example.native:/logged-out"), ("state", logoutState)])))
        if logoutPage.redirect == nil, !browser.forms.isEmpty {
            let loggedOut = try await browser.submit(formWithAction: Routes.endSession, pressing: "decision")
            if let location = loggedOut.redirect?.location { secrets.note("logout redirect", location) }
        } else if let location = logoutPage.redirect?.location {
            secrets.note("logout redirect", location)
        }
        // 4. Federated sign-in through the mock Google.
        let federated = FormBrowser()
        federated.trust(google.baseURL)
        let pkce3 = PKCEPair.generate(), state3 = Self.random("st-"), nonce3 = Self.random("n-")
        note(pkce3, state3, nonce3)
        #expect(try await federated.open(authorize("native", redirect: "http://127.0.0.1:49153/callback", pkce: pkce3, state: state3, nonce: nonce3)).status == 200)
        let link = try Federated.providerLink(federated, connection: "google")
        let back = try await federated.open(signet.url(link))
        for cookie in federated.cookies.all { secrets.note("cookie \(cookie.name)", cookie.value) }
        let upstream = try await redeem(back, client: "native", redirect: "http://127.0.0.1:49153/callback", pkce: pkce3)
        // The code again: refused (RFC 6749 §4.1.2), and the refusal is one more request line.
        let replay = try await http.post(signet.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", try #require(upstream["code"]?.stringValue)),
            ("redirect_uri", "http://127.0.0.1:49153/callback"), ("client_id", "native"), ("code_verifier", pkce3.verifier)])
        #expect(replay.status == 400)
        // 5. Native ID-token sign-in (token exchange with an upstream ID token and a Signet nonce).
        let nonceResponse = try await http.post(signet.url(Routes.nativeNonce), form: [("client_id", "native")])
        #expect(nonceResponse.status == 200, "\(nonceResponse)")
        let nativeNonce = try #require(try nonceResponse.json()["nonce"]?.stringValue)
        secrets.note("native nonce", nativeNonce)
        let upstreamToken = try google.mintIDToken(nonce: nativeNonce, audience: "native-android-client")
        secrets.note("upstream ID token", upstreamToken)
        let exchanged = try await http.post(signet.url(Routes.token), form: [
            ("grant_type", Self.tokenExchange), ("subject_token", upstreamToken),
            ("subject_token_type", "urn:ietf:params:oauth:token-type:id_token"), ("client_id", "native"),
            ("connection", "google"), ("scope", "openid email offline_access")])
        #expect(exchanged.status == 200, "\(exchanged)")
        for name in ["access_token", "refresh_token", "id_token"] { secrets.note("exchanged " + name, try exchanged.json()[name]?.stringValue) }
        // 6. client_credentials, and a wrong secret.
        let service = try await http.post(signet.url(Routes.token), form: [("grant_type", "client_credentials")], headers: basic)
        #expect(service.status == 200, "\(service)")
        secrets.note("service access token", try service.json()["access_token"]?.stringValue)
        let wrongSecret = Self.random("sgcs_")
        secrets.note("wrong client secret", wrongSecret)
        // Raw socket: URLSession on Linux stalls on a 401 with a Basic challenge.
        let wrong = try await HTTPTestClientShim(port: signet.port).post(Routes.token, [("grant_type", "client_credentials")],
                                                                         basic: ("svc", wrongSecret))
        #expect(wrong.status == 401)
    }
}

/// A request line carries only what the client chose, made printable: a decoded `%0A` in the path
/// cannot start a forged log line.
@Suite(.endToEndLimit) struct RequestLogLineTests {
    @Test func controlCharactersAndNonASCIIAreEscapedAndLongPathsCut() {
        #expect(Log.requestLine(method: "GET", path: "/token", status: 200, seconds: 0.0031) == "GET /token 200 0.003s")
        let forged = Log.requestLine(method: "GET", path: "/x\n2026-12-01T00:00:00Z error forged \\ é", status: 404, seconds: 0)
        #expect(forged == #"GET /x\x0A2026-12-01T00:00:00Z\x20error\x20forged\x20\x5C\x20\xC3\xA9 404 0.000s"#)
        #expect(!forged.contains("\n"))
        let long = Log.requestLine(method: "GET", path: "/" + String(repeating: "a", count: 1000), status: 404, seconds: 0)
        #expect(long.utf8.count < 300 && long.contains("…"))
    }

    /// `logging.format=text`: a message carrying upstream or SMTP text (a newline, a carriage
    /// return, U+2028) stays on its one line, readable; a JSON line carries it as JSON does.
    @Test func textLinesEscapeTheMessagesControlCharacters() throws {
        let upstream = "token endpoint: invalid_grant\n2026-12-01T00:00:00.000Z error forged\r\u{2028}\u{7F}é"
        let text = try #require(Log.line(.error, "federation callback (google): \(upstream)", requestID: "r1\n", format: .text))
        #expect(!text.contains("\n") && !text.contains("\r") && !text.contains("\u{2028}") && !text.contains("\u{7F}"))
        #expect(text.hasSuffix(#" error [r1\u{A}] federation callback (google): token endpoint: invalid_grant\u{A}2026-12-01T00:00:00.000Z error forged\u{D}\u{2028}\u{7F}é"#),
                "\(text)")
        let json = try #require(Log.line(.error, upstream, requestID: nil, format: .json))
        #expect(!json.contains("\n"))
        #expect(try JSONValue.parse(Array(json.utf8), maximumDepth: 2)["msg"]?.stringValue == upstream)
    }
}
