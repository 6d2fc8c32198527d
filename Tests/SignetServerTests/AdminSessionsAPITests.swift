import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetMockProvider
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The admin API on a user's sessions, grants, second factors and consents, and on the
/// connections, over real HTTP: each operation, its refusals (no token, a bad or expired token,
/// the wrong scope: 401/403 and nothing changed), and a revoked refresh token refused at `/token`.
@Suite(.endToEndLimit) struct AdminSessionsAPITests {
    /// A signed-in browser session of the interactive user and the refresh token of its grant.
    func signIn(_ interactive: Interactive) async throws -> String {
        let pkce = PKCEPair.generate()
        let code = try #require(try await interactive.signIn(FormBrowser(), pkce: pkce).query()["code"])
        let tokens = try await interactive.redeem(code: code, pkce: pkce).json()
        return try #require(tokens["refresh_token"]?.stringValue)
    }

    /// A refresh at the public `/token`: its status and `error`.
    func refresh(_ interactive: Interactive, _ token: String) async throws -> (status: Int, error: String?) {
        let response = try await HTTPTestClient().post(interactive.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "native")])
        return (response.status, try response.json()["error"]?.stringValue)
    }

    func ids(_ response: TestResponse, _ key: String = "id") throws -> [String] {
        try response.json()["items"]?.arrayValue?.compactMap { $0[key]?.stringValue } ?? []
    }

    @Test func sessionsAndGrantsAreListedAndRevoked() async throws {
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let fixture = try AdminFixture(server: interactive.server)
        let user = interactive.user.id
        let storage = interactive.server.environment.storage
        let firstRefresh = try await signIn(interactive)
        let secondRefresh = try await signIn(interactive)
        let token = try await fixture.token()

        let sessions = try await fixture.call("GET", "/admin/v1/users/\(user)/sessions", token: token)
        #expect(sessions.status == 200, "\(sessions)")
        #expect(sessions.header("Cache-Control") == "no-store")
        let sessionIDs = try ids(sessions)
        #expect(sessionIDs.count == 2)
        #expect(sessionIDs == sessionIDs.sorted())
        #expect(try sessions.json()["items"]?.arrayValue?.first?["amr"]?.arrayValue == ["pwd"])
        // Paging: one per page, then the second, then no cursor.
        let page = try await fixture.call("GET", "/admin/v1/users/\(user)/sessions?limit=1", token: token)
        let cursor = try #require(try page.json()["next_cursor"]?.stringValue)
        let next = try await fixture.call("GET", "/admin/v1/users/\(user)/sessions?limit=1&cursor=\(cursor)", token: token)
        #expect(try ids(next) == [sessionIDs[1]])
        #expect(try next.json()["next_cursor"]?.isNull == true)

        let grants = try await fixture.call("GET", "/admin/v1/users/\(user)/grants", token: token)
        #expect(grants.status == 200, "\(grants)")
        let grantItems = try grants.json()["items"]?.arrayValue ?? []
        #expect(grantItems.count == 2)
        #expect(grantItems.allSatisfy { $0["client"]?.stringValue == "native" })
        #expect(Set(grantItems.compactMap { $0["session"]?.stringValue }) == Set(sessionIDs))
        #expect(!grants.text.contains(firstRefresh) && !grants.text.contains(secondRefresh))

        // Refusals: nothing is ended by any of them.
        let target = try #require(grantItems.first)
        let grantID = try #require(target["id"]?.stringValue)
        let grantPath = "/admin/v1/users/\(user)/grants/\(grantID)"
        let none = try await fixture.call("DELETE", grantPath, token: nil)
        expectAdminError(none, 401, "missing_token", field: "Authorization")
        #expect(none.header("WWW-Authenticate") == #"Bearer realm="signet-admin""#)
        expectAdminError(try await fixture.call("DELETE", grantPath, token: "not.a.token"), 401, "invalid_token")
        let reader = try await fixture.token(["admin:sessions:read"])
        let refused = try await fixture.call("DELETE", grantPath, token: reader)
        expectAdminError(refused, 403, "insufficient_scope")
        #expect(refused.header("WWW-Authenticate") == #"Bearer realm="signet-admin", error="insufficient_scope", scope="admin:sessions:write""#)
        let usersOnly = try await fixture.token(["admin:users:read", "admin:users:write"])
        expectAdminError(try await fixture.call("GET", "/admin/v1/users/\(user)/sessions", token: usersOnly), 403, "insufficient_scope")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user)/sessions/\(sessionIDs[0])", token: usersOnly),
                         403, "insufficient_scope")
        let expiring = try await fixture.token()
        interactive.server.clock.advance(by: TimeInterval(interactive.server.configuration.lifetimes.accessToken + 31))
        expectAdminError(try await fixture.call("DELETE", grantPath, token: expiring), 401, "invalid_token")
        expectAdminError(try await fixture.call("DELETE", grantPath, token: expiring), 401, "invalid_token")
        let fresh = try await fixture.token()
        // Bad input: an unknown grant or session, another user's, a query parameter.
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user)/grants/no-such-grant", token: fresh), 404, "not_found")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/no-such-user/grants/\(grantID)", token: fresh), 404, "not_found")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user)/sessions/not-a-session", token: fresh), 404, "not_found")
        expectAdminError(try await fixture.call("DELETE", grantPath + "?force=1", token: fresh), 400, "invalid_request", field: "force")
        expectAdminError(try await fixture.call("GET", "/admin/v1/users/\(user)/sessions?filter=x", token: fresh), 400, "invalid_request", field: "filter")
        let other = try interactive.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: Interactive.password)
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(other.id)/grants/\(grantID)", token: fresh), 404, "not_found")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(other.id)/sessions/\(sessionIDs[0])", token: fresh), 404, "not_found")
        #expect(try storage.refreshTokens.activeRefreshGrants(userID: user, now: interactive.server.clock.now).count == 2)
        #expect(try storage.sessions.activeSessions(userID: user, now: interactive.server.clock.now).count == 2)

        // Revoke one grant: its refresh token is refused at /token with invalid_grant (RFC 6749 §5.2).
        let revoked = try await fixture.call("DELETE", grantPath, token: fresh)
        #expect(revoked.status == 204, "\(revoked)")
        expectAdminError(try await fixture.call("DELETE", grantPath, token: fresh), 404, "not_found")
        // Of the two refresh tokens, exactly the revoked grant's fails.
        let results = [try await refresh(interactive, firstRefresh), try await refresh(interactive, secondRefresh)]
        #expect(results.filter { $0.status == 400 && $0.error == "invalid_grant" }.count == 1, "\(results)")
        #expect(results.filter { $0.status == 200 }.count == 1, "\(results)")

        // End the other session: it and the grant signed in through it end.
        let remaining = try #require(grantItems.first { $0["id"]?.stringValue != grantID }?["session"]?.stringValue)
        let ended = try await fixture.call("DELETE", "/admin/v1/users/\(user)/sessions/\(remaining)", token: fresh)
        #expect(ended.status == 200, "\(ended)")
        #expect(try ended.json()["sessions"]?.intValue == 1)
        #expect(try ended.json()["grants"]?.intValue == 1)
        #expect(try storage.refreshTokens.activeRefreshGrants(userID: user, now: interactive.server.clock.now).isEmpty)
        #expect(try storage.sessions.activeSessions(userID: user, now: interactive.server.clock.now).count == 1)
        let audit = try await fixture.call("GET", "/admin/v1/audit?subject=\(user)&limit=200", token: fresh)
        let events = try audit.json()["items"]?.arrayValue ?? []
        #expect(events.contains { $0["event"]?.stringValue == "grant_revoked" && $0["actor"]?.stringValue == "ops" })
        #expect(events.contains { $0["event"]?.stringValue == "session_ended" && $0["actor"]?.stringValue == "ops" })
        #expect(events.allSatisfy { $0["subject"]?.stringValue == user })
    }

    /// Revoking all of a user's sessions and tokens ends every refresh token (invalid_grant).
    @Test func revokeAllNeedsTheWriteScopeAndEndsEveryRefreshToken() async throws {
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let fixture = try AdminFixture(server: interactive.server)
        let refreshToken = try await signIn(interactive)
        let path = "/admin/v1/users/\(interactive.user.id)/revoke"
        expectAdminError(try await fixture.call("POST", path, token: try await fixture.token(["admin:users:read"])), 403, "insufficient_scope")
        let storage = interactive.server.environment.storage
        #expect(try storage.refreshTokens.activeRefreshGrants(userID: interactive.user.id, now: interactive.server.clock.now).count == 1)
        let revoked = try await fixture.call("POST", path, token: try await fixture.token())
        #expect(revoked.status == 200, "\(revoked)")
        #expect(try revoked.json()["grants"]?.intValue == 1)
        #expect(try storage.refreshTokens.activeRefreshGrants(userID: interactive.user.id, now: interactive.server.clock.now).isEmpty)
        #expect(try await refresh(interactive, refreshToken) == (400, "invalid_grant"))
    }

    @Test func secondFactorsAreShownAndReset() async throws {
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let fixture = try AdminFixture(server: interactive.server)
        let store = interactive.server.environment.storage.secondFactors
        let user = interactive.user.id
        let now = interactive.server.clock.now
        let sealed: [UInt8] = Array(repeating: 7, count: 40)
        #expect(try store.putUnconfirmedTOTP(TOTPFactorRecord(userID: user, sealedSecret: sealed, createdAt: now)))
        #expect(try store.confirmTOTP(userID: user, sealedSecret: sealed, step: 1, at: now,
                                      recoveryCodeHashes: (0..<10).map { Array(repeating: UInt8($0), count: 32) }))
        let path = "/admin/v1/users/\(user)/second-factors"
        let token = try await fixture.token()
        let shown = try await fixture.call("GET", path, token: token)
        #expect(shown.status == 200, "\(shown)")
        #expect(try shown.json() == ["totp": "confirmed", "recovery_codes": 10])

        expectAdminError(try await fixture.call("DELETE", path, token: nil), 401, "missing_token")
        expectAdminError(try await fixture.call("DELETE", path, token: try await fixture.token(["admin:users:read"], client: "viewer")),
                         403, "insufficient_scope")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/nobody/second-factors", token: token), 404, "not_found")
        expectAdminError(try await fixture.call("DELETE", path + "?all=1", token: token), 400, "invalid_request", field: "all")
        #expect(try store.totpFactor(userID: user)?.isConfirmed == true)

        let reset = try await fixture.call("DELETE", path, token: token)
        #expect(reset.status == 200, "\(reset)")
        #expect(try reset.json() == ["totp": "none", "recovery_codes": 0])
        #expect(try store.totpFactor(userID: user) == nil)
        #expect(try store.unusedRecoveryCodes(userID: user) == 0)
        let audit = try await fixture.call("GET", "/admin/v1/audit?event=second_factors_reset", token: token)
        let events = try audit.json()["items"]?.arrayValue ?? []
        #expect(events.count == 1)
        #expect(events.first?["actor"]?.stringValue == "ops")
        #expect(events.first?["subject"]?.stringValue == user)
        #expect(events.first?["detail"]?["removed"]?.boolValue == true)
    }

    @Test func consentsAreListedAndRevoked() async throws {
        let interactive = try Interactive(adminListener: true)
        defer { interactive.stop() }
        let fixture = try AdminFixture(server: interactive.server)
        let consents = interactive.server.environment.storage.consents
        let user = interactive.user.id
        let now = interactive.server.clock.now
        try consents.putConsent(ConsentRecord(userID: user, clientID: "web", scopes: ["openid", "email"], grantedAt: now))
        try consents.putConsent(ConsentRecord(userID: user, clientID: "app", scopes: ["openid"], grantedAt: now))
        let token = try await fixture.token()
        let listed = try await fixture.call("GET", "/admin/v1/users/\(user)/consents", token: token)
        #expect(listed.status == 200, "\(listed)")
        #expect(try ids(listed, "client") == ["app", "web"])
        #expect(try listed.json()["items"]?.arrayValue?.last?["scopes"]?.arrayValue == ["openid", "email"])

        let path = "/admin/v1/users/\(user)/consents/web"
        expectAdminError(try await fixture.call("DELETE", path, token: nil), 401, "missing_token")
        expectAdminError(try await fixture.call("DELETE", path, token: try await fixture.token(["admin:consents:read"])), 403, "insufficient_scope")
        expectAdminError(try await fixture.call("GET", "/admin/v1/users/\(user)/consents", token: try await fixture.token(["admin:users:read"])),
                         403, "insufficient_scope")
        #expect(try consents.consent(userID: user, clientID: "web") != nil)

        let revoked = try await fixture.call("DELETE", path, token: token)
        #expect(revoked.status == 204, "\(revoked)")
        #expect(try consents.consent(userID: user, clientID: "web") == nil)
        #expect(try consents.consent(userID: user, clientID: "app") != nil)
        expectAdminError(try await fixture.call("DELETE", path, token: token), 404, "not_found")
        let audit = try await fixture.call("GET", "/admin/v1/audit?event=consent_revoked&client=web", token: token)
        #expect(try audit.json()["items"]?.arrayValue?.count == 1)
    }

    /// A connection's status follows the provider steps this node saw: unused, failing with the
    /// last error (a bad ID-token signature), then ok; the callback URL is the one to register.
    @Test func connectionsShowStatusLastErrorAndCallback() async throws {
        let fed = try Federated(.google, user: MockUser(email: "gina@example.com", name: "Gina"), adminListener: true)
        defer { fed.stop() }
        let fixture = try AdminFixture(server: fed.server)
        let token = try await fixture.token(["admin:connections:read"])
        let path = "/admin/v1/connections/google"

        let listed = try await fixture.call("GET", "/admin/v1/connections", token: token)
        #expect(listed.status == 200, "\(listed)")
        #expect(try ids(listed) == ["google"])
        let unused = try await fixture.call("GET", path, token: token)
        #expect(unused.status == 200, "\(unused)")
        let first = try unused.json()
        #expect(first["status"]?.stringValue == "unused")
        #expect(first["callback_url"]?.stringValue == fed.server.issuer + "/oauth2/callback/google")
        #expect(first["type"]?.stringValue == "google")
        #expect(first["last_error"]?.isNull == true)
        #expect(!unused.text.contains(fed.mock.clientSecret))

        fed.mock.behaviour.badSignature = true
        let failed = try await fed.signIn(fed.browser(), pkce: .generate())
        #expect(try failed.requireRedirect().query()["error"] == "access_denied")
        let failing = try await fixture.call("GET", path, token: token).json()
        #expect(failing["status"]?.stringValue == "failing")
        #expect(failing["last_error"]?["reason"]?.stringValue == "invalid_id_token")
        #expect(failing["last_error"]?["at"]?.stringValue != nil)

        fed.mock.behaviour.badSignature = false
        _ = try await fed.signIn(fed.browser(), pkce: .generate()).requireRedirect()
        let healthy = try await fixture.call("GET", path, token: token).json()
        #expect(healthy["status"]?.stringValue == "ok")
        #expect(healthy["last_success_at"]?.stringValue != nil)
        #expect(healthy["last_error"]?["reason"]?.stringValue == "invalid_id_token")

        // The same steps are on /metrics by connection and step: two authorizations, two
        // callbacks of which one failed, nothing else.
        let metrics = try await fixture.call("GET", "/metrics", token: nil).text
        let upstream = metrics.split(separator: "\n").filter { $0.hasPrefix("signet_upstream_") && !$0.contains("_bucket{") && !$0.contains("_sum{") }
        #expect(upstream.sorted() == [
            #"signet_upstream_errors_total{connection="google",step="callback"} 1"#,
            #"signet_upstream_step_duration_seconds_count{connection="google",step="authorize"} 2"#,
            #"signet_upstream_step_duration_seconds_count{connection="google",step="callback"} 2"#,
        ], "\(metrics)")

        expectAdminError(try await fixture.call("GET", path, token: nil), 401, "missing_token")
        expectAdminError(try await fixture.call("GET", path, token: try await fixture.token(["admin:users:read"])), 403, "insufficient_scope")
        expectAdminError(try await fixture.call("GET", "/admin/v1/connections/nope", token: token), 404, "not_found")
        expectAdminError(try await fixture.call("GET", "/admin/v1/connections?filter=goo&sort=id", token: token), 400, "invalid_request", field: "sort")
        #expect(try ids(try await fixture.call("GET", "/admin/v1/connections?filter=GOO", token: token)) == ["google"])
        #expect(try ids(try await fixture.call("GET", "/admin/v1/connections?filter=apple", token: token)).isEmpty)
    }

    /// An admin delete goes through AccountDeletion: the Apple token is revoked at the mock's /auth/revoke.
    @Test func adminDeleteOfAnAppleUserRevokesItsTokenAtApple() async throws {
        let fed = try Federated(.apple, user: MockUser(email: "ada@privaterelay.appleid.com", name: "Ada Apple"), adminListener: true)
        defer { fed.stop() }
        let fixture = try AdminFixture(server: fed.server)
        _ = try await fed.signIn(fed.browser(), pkce: .generate()).requireRedirect()
        let storage = fed.server.environment.storage
        let user = try #require(try storage.users.allUsers().first { $0.email.hasPrefix("ada@") })
        let token = try await fixture.token()
        let got = try await fixture.call("GET", "/admin/v1/users/\(user.id)", token: token)
        let etag = try #require(got.header("ETag"))
        // Refusals first: nothing is deleted or revoked.
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user.id)", token: nil), 401, "missing_token")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user.id)", token: try await fixture.token(["admin:users:read"]),
                                                headers: ["If-Match": etag]), 403, "insufficient_scope")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user.id)", token: token), 428, "precondition_required")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user.id)", token: token, headers: ["If-Match": "\"stale\""]),
                         412, "precondition_failed")
        #expect(try storage.users.user(id: user.id) != nil)
        #expect(fed.mock.revocations.isEmpty)

        let deleted = try await fixture.call("DELETE", "/admin/v1/users/\(user.id)", token: token, headers: ["If-Match": etag])
        #expect(deleted.status == 204, "\(deleted)")
        #expect(try storage.users.user(id: user.id) == nil)
        #expect(fed.mock.revocations.count == 1)
        #expect(fed.mock.revocations.first?.clientID == fed.mock.clientID)
        let audit = try await fixture.call("GET", "/admin/v1/audit?subject=\(user.id)", token: token)
        let events = try audit.json()["items"]?.arrayValue ?? []
        let deletion = try #require(events.first { $0["event"]?.stringValue == "account_deleted" })
        #expect(deletion["actor"]?.stringValue == "ops")
        #expect(deletion["detail"]?["via"]?.stringValue == "admin")
        #expect(events.contains { $0["event"]?.stringValue == "upstream_token_revoked" })
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/users/\(user.id)", token: token, headers: ["If-Match": etag]), 404, "not_found")
    }

    /// The audit list pages in the store and filters by event, subject, client and time.
    @Test func auditFiltersAndPages() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        for index in 0..<5 {
            _ = try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": .string("u\(index)@example.com")])
        }
        let first = try await fixture.call("GET", "/admin/v1/audit?event=user_created&limit=2", token: token)
        #expect(first.status == 200, "\(first)")
        var seen = try first.json()["items"]?.arrayValue ?? []
        var cursor = try first.json()["next_cursor"]?.stringValue
        while let next = cursor {
            let page = try await fixture.call("GET", "/admin/v1/audit?event=user_created&limit=2&cursor=\(next)", token: token)
            seen += try page.json()["items"]?.arrayValue ?? []
            cursor = try page.json()["next_cursor"]?.stringValue
            #expect(seen.count <= 5)
        }
        #expect(seen.count == 5)
        #expect(seen.allSatisfy { $0["event"]?.stringValue == "user_created" })
        let sequences = seen.compactMap { $0["sequence"]?.intValue }
        #expect(sequences == sequences.sorted(by: >))
        let subject = try #require(seen.first?["subject"]?.stringValue)
        let bySubject = try await fixture.call("GET", "/admin/v1/audit?subject=\(subject)", token: token)
        #expect(try bySubject.json()["items"]?.arrayValue?.count == 1)
        let future = try await fixture.call("GET", "/admin/v1/audit?since=2999-01-01T00:00:00Z", token: token)
        #expect(try future.json()["items"]?.arrayValue?.isEmpty == true)
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?since=yesterday", token: token), 400, "invalid_request", field: "since")
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?event=", token: token), 400, "invalid_request", field: "event")
        // `actor` is a filter now (AuditActorFilterTests); an unknown parameter is still refused by name.
        let byActor = try await fixture.call("GET", "/admin/v1/audit?actor=ops&event=user_created", token: token)
        #expect(try byActor.json()["items"]?.arrayValue?.allSatisfy { $0["actor"]?.stringValue == "ops" } == true, "\(byActor)")
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?who=ops", token: token), 400, "invalid_request", field: "who")
    }

    /// Every store statement is timed on /metrics by its operation (verb and table): a closed set.
    @Test func storeLatencyIsOnMetrics() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        #expect(try await fixture.call("GET", "/admin/v1/users", token: token).status == 200)
        let text = try await fixture.call("GET", "/metrics", token: nil).text
        #expect(text.contains("# TYPE signet_store_operation_duration_seconds histogram"))
        #expect(text.contains("signet_store_operation_duration_seconds_count{operation=\"select:users\"}"), "\(text)")
        #expect(text.contains("signet_store_operation_duration_seconds_bucket{operation=\"select:clients\",le=\"+Inf\"}"))
        let operations = Set(text.split(separator: "\n").filter { $0.hasPrefix("signet_store_operation_duration_seconds_count{") }
            .compactMap { line -> String? in
                guard let start = line.range(of: "operation=\""), let end = line[start.upperBound...].firstIndex(of: "\"") else { return nil }
                return String(line[start.upperBound..<end])
            })
        #expect(operations.count > 3)
        #expect(operations.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "_" || $0 == ":" || $0.isNumber } }, "\(operations)")
        #expect(!text.contains(token))
    }
}
