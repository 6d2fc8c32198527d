import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The admin listener over real HTTP: the probes, the public listener's 404s, every `/admin/v1`
/// operation and its refusals (token, scope, audience, body, ETag), with nothing changed by a refusal.
@Suite(.endToEndLimit) struct AdminAPITests {
    @Test func publicListenerServesNoAdminPath() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        let client = HTTPTestClient()
        for path in ["/admin", "/admin/", "/admin/v1", "/admin/v1/clients", "/admin/v1/clients/ops", "/admin/v1/openapi.json",
                     "/admin/v1/users", "/admin/v1/keys/rotate", "/admin/v1/audit", "/metrics", "/readyz"] {
            for method in ["GET", "POST", "PATCH", "DELETE"] {
                let response = try await client.send(method: method, url: fixture.server.url(path), body: method == "GET" ? nil : Array("{}".utf8),
                                                     headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
                #expect(response.status == 404, "\(method) \(path): \(response)")
                #expect(try response.json()["error"]?.stringValue == "not_found", "\(method) \(path)")
            }
        }
        // The route table itself: no public route under /admin.
        #expect(try fixture.server.application.makeRouter().respondSynchronously(
            to: HTTPRequest(method: .GET, path: "/admin/v1/clients"))?.status == 404)
        // And the same paths answer on the admin listener.
        #expect(try await fixture.call("GET", "/admin/v1/clients", token: token).status == 200)
    }

    @Test func probes() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let health = try await fixture.call("GET", "/healthz", token: nil)
        #expect(health.status == 200)
        #expect(try health.json()["status"]?.stringValue == "ok")
        let ready = try await fixture.call("GET", "/readyz", token: nil)
        #expect(ready.status == 200, "\(ready)")
        #expect(try ready.json()["status"]?.stringValue == "ready")
        let metrics = try await fixture.call("GET", "/metrics", token: nil)
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.text.contains("# TYPE signet_http_requests_total counter"))
        // A probe takes no query.
        expectAdminError(try await fixture.call("GET", "/healthz?x=1", token: nil), 400, "invalid_request", field: "x")
    }

    /// A database a newer build migrated (one version past this build's) is not ready.
    @Test func readinessNamesTheFailingCheck() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let database = fixture.server.configuration.databaseFilePath
        let insert = try await Subprocess.run("/usr/bin/sqlite3", [database, "INSERT INTO schema_migrations (version, applied_at) VALUES (9999, 0);"])
        #expect(insert.succeeded, "\(insert)")
        let ready = try await fixture.call("GET", "/readyz", token: nil)
        #expect(ready.status == 503, "\(ready)")
        let json = try ready.json()
        #expect(json["status"]?.stringValue == "not_ready")
        #expect(json["check"]?.stringValue == "migrations")
        #expect(json["reason"]?.stringValue?.contains("9999") == true)
        #expect(ready.header("Cache-Control") == "no-store")
    }

    /// RFC 6750 §3.1: no token is a bare challenge; a bad, expired, other-audience or user token
    /// is 401 invalid_token; a missing scope is 403 insufficient_scope naming it. Nothing changes.
    @Test func authorizationRefusals() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let create: JSONValue = ["id": "refused", "redirect_uris": ["com.example.refused:/cb"]]

        let none = try await fixture.call("POST", "/admin/v1/clients", token: nil, json: create)
        expectAdminError(none, 401, "missing_token", field: "Authorization")
        #expect(none.header("WWW-Authenticate") == #"Bearer realm="signet-admin""#)

        let basic = try await fixture.call("POST", "/admin/v1/clients", token: nil, json: create,
                                           headers: APIFixture.basic("ops", fixture.secret))
        expectAdminError(basic, 401, "missing_token")

        let garbage = try await fixture.call("POST", "/admin/v1/clients", token: "not.a.token", json: create)
        expectAdminError(garbage, 401, "invalid_token")
        #expect(garbage.header("WWW-Authenticate") == #"Bearer realm="signet-admin", error="invalid_token""#)

        // Without `resource` the token's audience is the issuer, not the admin API (RFC 8707).
        let otherAudience = try await fixture.token(resource: nil)
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: otherAudience, json: create), 401, "invalid_token")

        // A token of the right audience but a scope for users only.
        let usersOnly = try await fixture.token(["admin:users:read"])
        let wrongScope = try await fixture.call("POST", "/admin/v1/clients", token: usersOnly, json: create)
        expectAdminError(wrongScope, 403, "insufficient_scope")
        #expect(wrongScope.header("WWW-Authenticate") == #"Bearer realm="signet-admin", error="insufficient_scope", scope="admin:clients:write""#)
        // Read scope does not write.
        let reader = try await fixture.token(["admin:clients:read"], client: "viewer")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: reader, json: create), 403, "insufficient_scope")
        #expect(try await fixture.call("GET", "/admin/v1/clients", token: reader).status == 200)

        // Expired: past the lifetime and the 30 s leeway.
        let soonExpired = try await fixture.token()
        fixture.server.clock.advance(by: TimeInterval(fixture.server.configuration.lifetimes.accessToken + 31))
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: soonExpired, json: create), 401, "invalid_token")

        // A deleted admin client's token stops working at once.
        let fresh = try await fixture.token(["admin:clients:read"], client: "viewer")
        _ = try fixture.server.environment.storage.clients.deleteClient(id: "viewer")
        // The registry rechecks the store's generation within a second (monotonic clock).
        var refused = false
        for _ in 0..<40 where !refused {
            refused = try await fixture.call("GET", "/admin/v1/clients", token: fresh).status == 401
            if !refused { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        #expect(refused)

        #expect(try fixture.server.environment.storage.clients.client(id: "refused") == nil)
    }

    /// A user's token is never an admin token, even for the admin audience with an admin scope:
    /// only a client acting for itself (client_credentials, `sub` = `client_id`) is an admin.
    @Test func userTokensAreNotAdminTokens() async throws {
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let server = interactive.server
        let audience = server.issuer + "/admin/v1"
        // A confidential web client a user signs in to, allowed the admin audience and an admin scope.
        let secret = try ClientRegistration(server: server.application.authorizationServer).register(ClientSpec(
            id: "sneaky", isPublic: false, redirectURIs: [Interactive.loopback], scope: "openid admin:users:read",
            grantTypes: ["authorization_code"], firstParty: true, allowedResources: [audience])).secret ?? ""
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        let page = try await browser.open(interactive.authorizeURL(client: "sneaky", pkce: pkce,
                                                                   extra: [("scope", "openid admin:users:read"), ("resource", audience)]))
        #expect(page.status == 200)
        let code = try #require(try await interactive.submitCredentials(browser).requireRedirect().query()["code"])
        let redeemed = try await HTTPTestClient().post(server.url(Routes.token), form: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Interactive.callback),
            ("code_verifier", pkce.verifier), ("resource", audience),
        ], headers: APIFixture.basic("sneaky", secret))
        #expect(redeemed.status == 200, "\(redeemed)")
        let access = try #require(try redeemed.json()["access_token"]?.stringValue)
        let claims = try #require(access.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) })
        let payload = try JSONValue.parse(claims)
        #expect(payload["aud"]?.stringValue == audience || payload["aud"]?.arrayValue?.contains(.string(audience)) == true)
        #expect(payload["scope"]?.stringValue?.contains("admin:users:read") == true)
        let refused = try await AdminFixture.raw("GET", "/admin/v1/users", port: server.adminPort ?? 0, body: [],
                                                 headers: ["Authorization": "Bearer \(access)"])
        expectAdminError(refused, 401, "invalid_token")
        #expect(!refused.text.contains(Interactive.email))
    }

    @Test func clientLifecycle() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()

        // Create a confidential service client: 201, Location, ETag, the secret once.
        let created = try await fixture.call("POST", "/admin/v1/clients", token: token, json: [
            "id": "billing", "name": "Billing", "type": "confidential", "grant_types": ["client_credentials"], "scope": "api:read",
        ])
        #expect(created.status == 201, "\(created)")
        #expect(created.location == "/admin/v1/clients/billing")
        let createdJSON = try created.json()
        let secret = try #require(createdJSON["client_secret"]?.stringValue)
        #expect(secret.hasPrefix("sgcs_"))
        #expect(createdJSON["client"]?["has_secret"]?.boolValue == true)
        #expect(!created.text.contains("secret_hash"))
        let etag = try #require(created.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))

        // Get: the same ETag, no secret.
        let got = try await fixture.call("GET", "/admin/v1/clients/billing", token: token)
        #expect(got.status == 200)
        #expect(got.header("ETag") == etag)
        #expect(!got.text.contains(secret))
        #expect(try got.json()["name"]?.stringValue == "Billing")

        // Taken id: 409 naming id.
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, json: ["id": "billing", "type": "confidential",
                                                                                                    "grant_types": ["client_credentials"]]),
                         409, "conflict", field: "id")

        // Update: 428 without If-Match, 412 with a stale one, then 200 with a new ETag.
        let rename: JSONValue = ["name": "Billing v2"]
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: rename),
                         428, "precondition_required", field: "If-Match")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: rename, headers: ["If-Match": "\"stale\""]),
                         412, "precondition_failed", field: "If-Match")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: rename, headers: ["If-Match": "*"]),
                         412, "precondition_failed")
        #expect(try fixture.server.environment.storage.clients.client(id: "billing")?.name == "Billing")
        let updated = try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: rename, headers: ["If-Match": etag])
        #expect(updated.status == 200, "\(updated)")
        #expect(try updated.json()["name"]?.stringValue == "Billing v2")
        let etag2 = try #require(updated.header("ETag"))
        #expect(etag2 != etag)
        // The first ETag no longer matches: a second operator's write is refused, not lost.
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: ["name": "Lost"], headers: ["If-Match": etag]),
                         412, "precondition_failed")

        // Validation names the field; unknown and immutable members are refused by name.
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token,
                                                json: ["redirect_uris": ["http://example.com/cb"], "grant_types": ["authorization_code"]],
                                                headers: ["If-Match": etag2]), 400, "invalid_request", field: "redirect_uris[0]")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: ["colour": "red"], headers: ["If-Match": etag2]),
                         400, "invalid_request", field: "colour")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: ["type": "public"], headers: ["If-Match": etag2]),
                         400, "invalid_request", field: "type")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: ["first_party": "yes"], headers: ["If-Match": etag2]),
                         400, "invalid_request", field: "first_party")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, json: ["name": "no id"]), 400, "invalid_request", field: "id")
        // Bodies: invalid JSON, not an object, wrong type, too large.
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, body: Array("{\"id\": ".utf8),
                                                headers: ["Content-Type": "application/json"]), 400, "invalid_request")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, body: Array("[1]".utf8),
                                                headers: ["Content-Type": "application/json"]), 400, "invalid_request")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, body: Array("id=x".utf8),
                                                headers: ["Content-Type": "application/x-www-form-urlencoded"]), 415, "unsupported_media_type")
        let huge = Array("{\"id\": \"\(String(repeating: "a", count: 70_000))\"}".utf8)
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, body: huge,
                                                headers: ["Content-Type": "application/json"]), 413, "payload_too_large")
        #expect(try fixture.server.environment.storage.clients.client(id: "billing")?.name == "Billing v2")

        // Rotate the secret: the new one works at /token, the old one no longer does.
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients/billing/secret", token: token), 428, "precondition_required")
        let rotated = try await fixture.call("POST", "/admin/v1/clients/billing/secret", token: token, headers: ["If-Match": etag2])
        #expect(rotated.status == 200, "\(rotated)")
        let newSecret = try #require(try rotated.json()["client_secret"]?.stringValue)
        let etag3 = try #require(rotated.header("ETag"))
        #expect(etag3 != etag2)
        let form = [("grant_type", "client_credentials")]
        #expect(try await fixture.publicCall("POST", Routes.token, form: form, headers: APIFixture.basic("billing", newSecret)).status == 200)
        #expect(try await fixture.publicCall("POST", Routes.token, form: form, headers: APIFixture.basic("billing", secret)).status == 401)

        // Delete: If-Match needed; then 404.
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/clients/billing", token: token, headers: ["If-Match": etag2]), 412, "precondition_failed")
        let deleted = try await fixture.call("DELETE", "/admin/v1/clients/billing", token: token, headers: ["If-Match": etag3])
        #expect(deleted.status == 204)
        expectAdminError(try await fixture.call("GET", "/admin/v1/clients/billing", token: token), 404, "not_found")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/clients/billing", token: token, headers: ["If-Match": etag3]), 404, "not_found")

        // Every change is in the audit log with the acting client, and no secret.
        let audit = try await fixture.call("GET", "/admin/v1/audit?limit=200", token: token)
        #expect(audit.status == 200)
        let events = try audit.json()["items"]?.arrayValue ?? []
        let names = events.compactMap { $0["event"]?.stringValue }
        for name in ["client_created", "client_updated", "client_secret_rotated", "client_deleted"] {
            #expect(names.contains(name), "\(name) in \(names)")
        }
        let createdEvent = events.first { $0["event"]?.stringValue == "client_created" && $0["client"]?.stringValue == "billing" }
        #expect(createdEvent?["actor"]?.stringValue == "ops")
        #expect(!audit.text.contains(secret) && !audit.text.contains(newSecret))
    }

    @Test func clientListPagingAndFilter() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        for id in ["app-a", "app-b", "app-c"] {
            let response = try await fixture.call("POST", "/admin/v1/clients", token: token, json: ["id": .string(id), "redirect_uris": .array([.string("com.example.\(id.replacingOccurrences(of: "-", with: "")):/cb")])])
            #expect(response.status == 201, "\(response)")
        }
        // ops, viewer, app-a, app-b, app-c: ordered by id.
        let first = try await fixture.call("GET", "/admin/v1/clients?limit=2", token: token)
        #expect(first.status == 200)
        let firstJSON = try first.json()
        #expect(firstJSON["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["app-a", "app-b"])
        let cursor = try #require(firstJSON["next_cursor"]?.stringValue)
        let second = try await fixture.call("GET", "/admin/v1/clients?limit=2&cursor=\(cursor)", token: token)
        #expect(try second.json()["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["app-c", "ops"])
        let third = try await fixture.call("GET", "/admin/v1/clients?limit=2&cursor=ops", token: token)
        let thirdJSON = try third.json()
        #expect(thirdJSON["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["viewer"])
        #expect(thirdJSON["next_cursor"]?.isNull == true)
        let filtered = try await fixture.call("GET", "/admin/v1/clients?filter=APP-B", token: token)
        #expect(try filtered.json()["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["app-b"])
        expectAdminError(try await fixture.call("GET", "/admin/v1/clients?limit=0", token: token), 400, "invalid_request", field: "limit")
        expectAdminError(try await fixture.call("GET", "/admin/v1/clients?limit=201", token: token), 400, "invalid_request", field: "limit")
        expectAdminError(try await fixture.call("GET", "/admin/v1/clients?sort=id", token: token), 400, "invalid_request", field: "sort")
        expectAdminError(try await fixture.call("GET", "/admin/v1/clients?limit=1&limit=2", token: token), 400, "invalid_request", field: "limit")
    }

    @Test func userLifecycle() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        let users = fixture.server.environment.storage.users

        expectAdminError(try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": "not an email"]),
                         400, "invalid_request", field: "email")
        expectAdminError(try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": "bob@example.com", "password": "password"]),
                         400, "invalid_request", field: "password")
        expectAdminError(try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": "bob@example.com", "admin": true]),
                         400, "invalid_request", field: "admin")
        #expect(try users.user(email: "bob@example.com") == nil)

        let created = try await fixture.call("POST", "/admin/v1/users", token: token,
                                             json: ["email": "Bob@Example.com", "name": "Bob", "password": "correct horse battery"])
        #expect(created.status == 201, "\(created)")
        let user = try created.json()
        let id = try #require(user["id"]?.stringValue)
        #expect(user["email"]?.stringValue == "bob@example.com")
        #expect(user["has_password"]?.boolValue == true)
        #expect(!created.text.contains("argon2"))
        expectAdminError(try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": "bob@example.com"]), 409, "conflict", field: "email")
        _ = try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": "carol@example.com"])

        // Search and paging.
        let search = try await fixture.call("GET", "/admin/v1/users?filter=bob", token: token)
        #expect(try search.json()["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [id])
        let page = try await fixture.call("GET", "/admin/v1/users?limit=1", token: token)
        #expect(try page.json()["items"]?.arrayValue?.count == 1)
        #expect(try page.json()["next_cursor"]?.stringValue != nil)

        // Update the profile with If-Match.
        let got = try await fixture.call("GET", "/admin/v1/users/\(id)", token: token)
        let etag = try #require(got.header("ETag"))
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/users/\(id)", token: token, json: ["name": "Robert"]), 428, "precondition_required")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/users/\(id)", token: token, json: ["email": "x@example.com"], headers: ["If-Match": etag]),
                         400, "invalid_request", field: "email")
        let patched = try await fixture.call("PATCH", "/admin/v1/users/\(id)", token: token, json: ["name": "Robert", "email_verified": true],
                                             headers: ["If-Match": etag])
        #expect(patched.status == 200, "\(patched)")
        #expect(try patched.json()["name"]?.stringValue == "Robert")
        #expect(try patched.json()["email_verified"]?.boolValue == true)
        let etag2 = try #require(patched.header("ETag"))

        // Disable (stale ETag refused first), enable, revoke, delete.
        expectAdminError(try await fixture.call("POST", "/admin/v1/users/\(id)/disable", token: token, headers: ["If-Match": etag]), 412, "precondition_failed")
        #expect(try users.user(id: id)?.disabledAt == nil)
        let disabled = try await fixture.call("POST", "/admin/v1/users/\(id)/disable", token: token, headers: ["If-Match": etag2])
        #expect(disabled.status == 200, "\(disabled)")
        #expect(try disabled.json()["disabled"]?.boolValue == true)
        #expect(try users.user(id: id)?.disabledAt != nil)
        let enabled = try await fixture.call("POST", "/admin/v1/users/\(id)/enable", token: token,
                                             headers: ["If-Match": try #require(disabled.header("ETag"))])
        #expect(enabled.status == 200)
        #expect(try users.user(id: id)?.disabledAt == nil)
        let revoked = try await fixture.call("POST", "/admin/v1/users/\(id)/revoke", token: token)
        #expect(revoked.status == 200, "\(revoked)")
        #expect(try revoked.json()["sessions"]?.intValue == 0)

        let readOnly = try await fixture.token(["admin:users:read"], client: "viewer")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(id)", token: readOnly,
                                                headers: ["If-Match": try #require(enabled.header("ETag"))]), 403, "insufficient_scope")
        let deleted = try await fixture.call("DELETE", "/admin/v1/users/\(id)", token: token, headers: ["If-Match": try #require(enabled.header("ETag"))])
        #expect(deleted.status == 204)
        #expect(try users.user(id: id) == nil)
        expectAdminError(try await fixture.call("GET", "/admin/v1/users/\(id)", token: token), 404, "not_found")
    }

    /// Revoking a signed-in user's sessions ends them and its refresh tokens.
    @Test func revokeEndsSessionsAndRefreshTokens() async throws {
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let server = interactive.server
        let registration = ClientRegistration(server: server.application.authorizationServer)
        let secret = try registration.register(ClientSpec(id: "ops", isPublic: false, scope: "admin:users:write",
                                                          grantTypes: ["client_credentials"],
                                                          allowedResources: [server.issuer + "/admin/v1"])).secret ?? ""
        let pkce = PKCEPair.generate()
        let code = try #require(try await interactive.signIn(FormBrowser(), pkce: pkce).query()["code"])
        let tokens = try await interactive.redeem(code: code, pkce: pkce).json()
        let refresh = try #require(tokens["refresh_token"]?.stringValue)

        let http = HTTPTestClient()
        let tokenResponse = try await http.post(server.url(Routes.token), form: [
            ("grant_type", "client_credentials"), ("scope", "admin:users:write"), ("resource", server.issuer + "/admin/v1"),
        ], headers: APIFixture.basic("ops", secret))
        let admin = try #require(try tokenResponse.json()["access_token"]?.stringValue)
        let revoked = try await http.send(method: "POST", url: server.adminURL("/admin/v1/users/\(interactive.user.id)/revoke"),
                                          body: [], headers: ["Authorization": "Bearer \(admin)"])
        #expect(revoked.status == 200, "\(revoked)")
        #expect(try revoked.json()["sessions"]?.intValue == 1)
        #expect(try revoked.json()["grants"]?.intValue == 1)
        let refreshed = try await http.post(server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "native"),
        ])
        #expect(refreshed.status == 400)
        #expect(try refreshed.json()["error"]?.stringValue == "invalid_grant")
    }

    @Test func keys() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        let listed = try await fixture.call("GET", "/admin/v1/keys", token: token)
        #expect(listed.status == 200)
        let keys = try listed.json()["items"]?.arrayValue ?? []
        let before = try fixture.server.environment.keyRing.records().count
        #expect(keys.count == before)
        #expect(keys.allSatisfy { $0["status"]?.stringValue == "active" })
        #expect(!listed.text.contains("\"d\""))
        let activeID = try #require(keys.first { $0["algorithm"]?.stringValue == "RS256" }?["id"]?.stringValue)

        expectAdminError(try await fixture.call("POST", "/admin/v1/keys/rotate", token: token, json: ["algorithm": "none"]),
                         400, "invalid_request", field: "algorithm")
        expectAdminError(try await fixture.call("POST", "/admin/v1/keys/rotate", token: token, json: ["prepublish_seconds": -1]),
                         400, "invalid_request", field: "prepublish_seconds")
        let readOnly = try await fixture.token(["admin:keys:read"])
        expectAdminError(try await fixture.call("POST", "/admin/v1/keys/rotate", token: readOnly, json: [:]), 403, "insufficient_scope")
        #expect(try fixture.server.environment.keyRing.records().count == before)

        let rotated = try await fixture.call("POST", "/admin/v1/keys/rotate", token: token, json: ["algorithm": "RS256", "prepublish_seconds": 60])
        #expect(rotated.status == 200, "\(rotated)")
        #expect(try rotated.json()["items"]?.arrayValue?.first?["status"]?.stringValue == "next")
        #expect(try fixture.server.environment.keyRing.records().count == before + 1)

        let retired = try await fixture.call("POST", "/admin/v1/keys/\(activeID)/retire", token: token)
        #expect(retired.status == 200, "\(retired)")
        expectAdminError(try await fixture.call("POST", "/admin/v1/keys/no-such-key/retire", token: token), 404, "not_found")
        let after = try await fixture.call("GET", "/admin/v1/keys", token: token)
        let statuses = Dictionary(uniqueKeysWithValues: (try after.json()["items"]?.arrayValue ?? []).compactMap { key in
            key["id"]?.stringValue.map { ($0, key["status"]?.stringValue ?? "") }
        })
        #expect(statuses[activeID] == "retired")

        // One key: the same public facts as its list entry, with the read scope; never the private half.
        let one = try await fixture.call("GET", "/admin/v1/keys/\(activeID)", token: readOnly)
        #expect(one.status == 200, "\(one)")
        let listedEntry = (try after.json()["items"]?.arrayValue ?? []).first { $0["id"]?.stringValue == activeID }
        #expect(try one.json() == listedEntry)
        #expect(!one.text.contains("\"d\""))
        expectAdminError(try await fixture.call("GET", "/admin/v1/keys/no-such-key", token: token), 404, "not_found")
        expectAdminError(try await fixture.call("GET", "/admin/v1/keys/\(activeID)?x=1", token: token), 400, "invalid_request", field: "x")
        let noKeyScope = try await fixture.token(["admin:users:read"], client: "viewer")
        expectAdminError(try await fixture.call("GET", "/admin/v1/keys/\(activeID)", token: noKeyScope), 403, "insufficient_scope")
        expectAdminError(try await fixture.call("GET", "/admin/v1/keys/\(activeID)", token: nil), 401, "missing_token", field: "Authorization")
        // The public listener never serves it.
        let publicAnswer = try await HTTPTestClient().get(fixture.server.url("/admin/v1/keys/\(activeID)"))
        #expect(publicAnswer.status == 404)
    }

    @Test func auditPaging() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        for index in 0..<3 {
            _ = try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": .string("u\(index)@example.com")])
        }
        let first = try await fixture.call("GET", "/admin/v1/audit?limit=2", token: token)
        #expect(first.status == 200)
        let items = try first.json()["items"]?.arrayValue ?? []
        #expect(items.count == 2)
        let cursor = try #require(try first.json()["next_cursor"]?.stringValue)
        let second = try await fixture.call("GET", "/admin/v1/audit?limit=2&cursor=\(cursor)", token: token)
        let more = try second.json()["items"]?.arrayValue ?? []
        let firstSequences = items.compactMap { $0["sequence"]?.intValue }
        let secondSequences = more.compactMap { $0["sequence"]?.intValue }
        #expect(!secondSequences.isEmpty)
        #expect((secondSequences.max() ?? .max) < (firstSequences.min() ?? 0))
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?cursor=abc", token: token), 400, "invalid_request", field: "cursor")
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?filter=x", token: token), 400, "invalid_request", field: "filter")
        let noScope = try await fixture.token(["admin:users:read"])
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit", token: noScope), 403, "insufficient_scope")
    }
}
