import Foundation
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// The OpenAPI document: served, equal to docs/openapi.json, listing exactly the admin routes;
/// schemathesis against the running server; the metrics' labels; a real Prometheus scrape.
@Suite(.endToEndLimit) struct AdminOpenAPITests {
    @Test func servedDocumentIsTheCommittedOne() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let served = try await fixture.call("GET", "/admin/v1/openapi.json", token: nil)
        #expect(served.status == 200)
        #expect(served.mediaType == "application/json")
        let committed = try Data(contentsOf: PackagePaths.packageRoot.appendingPathComponent("docs/openapi.json"))
        #expect(served.body == Array(committed), "docs/openapi.json is stale: run `.build/debug/signet openapi > docs/openapi.json`")
        #expect(Array(committed) == SignetApplication.adminOpenAPIDocument())
        let document = try JSONValue.parse(served.body)
        #expect(document["openapi"]?.stringValue == "3.1.0")
    }

    /// Every route the admin listener serves is in the document, with its method, and nothing else is.
    @Test func documentAndRouteTableAgree() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let document = try JSONValue.parse(SignetApplication.adminOpenAPIDocument())
        var documented: Set<String> = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in (item.objectValue ?? [:]).keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        let routed = Set(fixture.server.application.adminRouteList().map { "\($0.method) \($0.path)" })
        #expect(routed == documented)
        #expect(routed.count > 20)
        // And each documented operation answers on the listener (not a 404 or 405 from the router).
        for entry in documented.sorted() {
            let parts = entry.split(separator: " ", maxSplits: 1).map(String.init)
            let path = parts[1].replacingOccurrences(of: "{id}", with: "x")
            let response = try await fixture.call(parts[0], path, token: nil)
            #expect(response.status != 405, "\(entry): \(response)")
            if document["paths"]?[parts[1]]?[parts[0].lowercased()]?["security"] != nil {
                #expect(response.status == 401, "\(entry): \(response)")
            }
        }
    }

    /// Request metrics are labelled by the route table's pattern, never the raw path: a path
    /// parameter or an unknown path cannot add series, and no token appears in the exposition.
    @Test func metricsUseRoutePatternsAndHoldNoSecret() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        for index in 0..<5 {
            _ = try await fixture.call("GET", "/admin/v1/clients/client-\(index)", token: token)
            _ = try await HTTPTestClient().get(fixture.server.url("/no/such/path/\(index)"))
        }
        let text = try await fixture.call("GET", "/metrics", token: nil).text
        #expect(text.contains(#"signet_http_requests_total{listener="admin",route="/admin/v1/clients/{id}",method="GET",status="404"} 5"#), "\(text)")
        #expect(text.contains(#"signet_http_requests_total{listener="public",route="unmatched",method="GET",status="404"} 5"#))
        #expect(text.contains(#"signet_token_requests_total{grant_type="client_credentials",result="success"} 1"#))
        #expect(text.contains(#"signet_http_request_duration_seconds_bucket{listener="admin",route="/admin/v1/clients/{id}",le="+Inf"} 5"#))
        #expect(text.contains("signet_signing_key_age_seconds{algorithm=\"RS256\"}"))
        #expect(text.contains("signet_mail_outbox_pending 0"))
        #expect(!text.contains("client-1") && !text.contains("/no/such"))
        #expect(!text.contains(token) && !text.contains(fixture.secret))
    }

    /// schemathesis (PyPI) against the running admin listener with an all-scope token: no 500,
    /// every status documented, every body matching its schema. Bounded: few examples per operation.
    @Test(.enabled(if: RealPart.schemathesis.canRun, RealPart.schemathesis.skipComment))
    func schemathesisFindsNoServerErrorOrNonconformance() async throws {
        try RealPart.schemathesis.use()
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        let folder = try TemporaryDirectory(prefix: "schemathesis")
        defer { folder.remove() }
        let base = "http://127.0.0.1:\(fixture.server.adminPort ?? 0)"
        let result = try await Subprocess.run(RealPart.schemathesisExecutable, [
            "run", base + "/admin/v1/openapi.json", "--url", base,
            "--header", "Authorization: Bearer \(token)",
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--max-examples", "8", "--phases", "examples,fuzzing", "--seed", "1", "--no-color",
            "--exclude-operation-id", "deleteClient", "--exclude-operation-id", "deleteUser",
            "--exclude-operation-id", "rotateKeys", "--exclude-operation-id", "retireKey",
        ], environment: ["HOME": folder.path, "SCHEMATHESIS_HOOKS": ""], currentDirectory: folder.path, timeoutSeconds: 240)
        #expect(result.status == 0, "schemathesis found problems:\n\(result.stdout.suffix(6000))\n\(result.stderr.suffix(2000))")
        // The admin client still works afterwards (the run did not lock us out or corrupt anything).
        #expect(try await fixture.call("GET", "/admin/v1/clients", token: token).status == 200)
    }

    /// A real Prometheus scrapes the admin listener: after a password sign-in, a refresh and a
    /// reuse of the rotated refresh token, the scraped series count each; no label holds a secret.
    @Test(.enabled(if: RealPart.prometheus.canRun, RealPart.prometheus.skipComment))
    func prometheusScrapesSignInRefreshAndReuse() async throws {
        try RealPart.prometheus.use()
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let server = interactive.server
        let pkce = PKCEPair.generate()
        let code = try #require(try await interactive.signIn(FormBrowser(), pkce: pkce).query()["code"])
        let tokens = try await interactive.redeem(code: code, pkce: pkce).json()
        let first = try #require(tokens["refresh_token"]?.stringValue)
        let http = HTTPTestClient()
        let refreshForm = { (token: String) in [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "native")] }
        let refreshed = try await http.post(server.url(Routes.token), form: refreshForm(first))
        #expect(refreshed.status == 200)
        // Past the grace window, the rotated token is a reuse: the family is revoked.
        server.clock.advance(by: 120)
        let reused = try await http.post(server.url(Routes.token), form: refreshForm(first))
        #expect(reused.status == 400)

        let prometheus = try await PrometheusServer.start(scraping: "127.0.0.1:\(server.adminPort ?? 0)")
        defer { Task { await prometheus.stop() } }
        #expect(try await prometheus.waitForValue(#"signet_sign_ins_total{method="password",result="success"}"#) == "1")
        #expect(try await prometheus.waitForValue("signet_refresh_rotations_total") == "1")
        #expect(try await prometheus.waitForValue("signet_refresh_reuse_detections_total") == "1")
        #expect(try await prometheus.waitForValue(#"sum(signet_http_requests_total{route="/token"})"#) == "3")
        // No label value anywhere holds a token, the code, the email or the password.
        var components = URLComponents(string: prometheus.baseURL + "/api/v1/series")
        components?.queryItems = [URLQueryItem(name: "match[]", value: #"{__name__=~"signet_.*"}"#)]
        let series = try await http.get(try #require(components?.url))
        #expect(series.status == 200, "\(series)")
        #expect(series.text.contains("signet_sign_ins_total"))
        for secret in [first, code, Interactive.email, Interactive.password, tokens["access_token"]?.stringValue ?? "-"] {
            #expect(!series.text.contains(secret))
        }
        await prometheus.stop()
    }
}
