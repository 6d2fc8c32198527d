import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
@testable import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Admin power over real HTTP: a token hands out no admin scope it lacks (to a client or a console
/// role), touches no client holding more than it does, carries no scope its client lost, and every
/// admin operation refuses a token holding every admin scope but its own.
@Suite(.endToEndLimit) struct AdminEscalationTests {
    /// A confidential admin client made by the operator on the store, and its secret.
    static func adminClient(_ fixture: AdminFixture, _ id: String, scopes: [String]) throws -> String {
        try ClientRegistration(server: fixture.server.application.authorizationServer).register(ClientSpec(
            id: id, isPublic: false, scope: scopes.joined(separator: " "), grantTypes: ["client_credentials"],
            allowedResources: [fixture.audience])).secret ?? ""
    }

    /// A client_credentials token of `id` for the admin audience.
    static func token(_ fixture: AdminFixture, _ id: String, _ secret: String, scopes: [String]) async throws -> String {
        let response = try await fixture.publicCall("POST", "/token", form: [
            ("grant_type", "client_credentials"), ("scope", scopes.joined(separator: " ")), ("resource", fixture.audience),
        ], headers: APIFixture.basic(id, secret))
        return try #require(try response.json()["access_token"]?.stringValue, "\(response)")
    }

    /// The issue's escalation: `admin:clients:write` alone registers a client_credentials client with
    /// the admin resource and every admin scope, then mints itself a token with them. Refused, and
    /// nothing is stored; so is adding a scope by PATCH and touching a client that holds more.
    @Test func clientsWriteCannotHandOutAdminScopes() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let secret = try Self.adminClient(fixture, "writer", scopes: ["admin:clients:write"])
        let token = try await Self.token(fixture, "writer", secret, scopes: ["admin:clients:write"])
        let escalation: JSONValue = [
            "id": "evil", "type": "confidential", "grant_types": ["client_credentials"], "resources": [.string(fixture.audience)],
            "scope": .string(AdminRoutes.scopes.joined(separator: " ")), "application_type": "service",
        ]
        let refused = try await fixture.call("POST", "/admin/v1/clients", token: token, json: escalation)
        expectAdminError(refused, 403, "insufficient_scope", field: "scope")
        #expect(refused.header("WWW-Authenticate")?.contains(#"error="insufficient_scope", scope="admin:audit:read""#) == true,
                "\(refused)")
        #expect(try fixture.server.environment.storage.clients.client(id: "evil") == nil)
        // One missing scope among held ones is enough to refuse.
        let one = try await fixture.call("POST", "/admin/v1/clients", token: token, json: [
            "id": "evil", "type": "confidential", "grant_types": ["client_credentials"], "resources": [.string(fixture.audience)],
            "scope": "admin:clients:write admin:operators:write", "application_type": "service",
        ])
        expectAdminError(one, 403, "insufficient_scope", field: "scope")
        #expect(try fixture.server.environment.storage.clients.client(id: "evil") == nil)

        // What the caller holds it may hand out; then a PATCH adding more is refused and changes nothing.
        let created = try await fixture.call("POST", "/admin/v1/clients", token: token, json: [
            "id": "peer", "type": "confidential", "grant_types": ["client_credentials"], "resources": [.string(fixture.audience)],
            "scope": "admin:clients:write", "application_type": "service",
        ])
        #expect(created.status == 201, "\(created)")
        let etag = try #require(created.header("ETag"))
        let patched = try await fixture.call("PATCH", "/admin/v1/clients/peer", token: token, json: ["scope": "admin:clients:write admin:keys:write"],
                                             headers: ["If-Match": etag])
        expectAdminError(patched, 403, "insufficient_scope", field: "scope")
        #expect(try fixture.server.environment.storage.clients.client(id: "peer")?.allowedScopes == ["admin:clients:write"])

        // `ops` holds more than the writer: renaming, re-keying or deleting it is refused too.
        let opsToken = try await fixture.token(["admin:clients:read"])
        let opsETag = try #require(try await fixture.call("GET", "/admin/v1/clients/ops", token: opsToken).header("ETag"))
        let before = try fixture.server.environment.storage.clients.client(id: "ops")
        expectAdminError(try await fixture.call("PATCH", "/admin/v1/clients/ops", token: token, json: ["name": "mine"],
                                                headers: ["If-Match": opsETag]), 403, "insufficient_scope", field: "scope")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients/ops/secret", token: token, headers: ["If-Match": opsETag]),
                         403, "insufficient_scope", field: "scope")
        expectAdminError(try await fixture.call("DELETE", "/admin/v1/clients/ops", token: token, headers: ["If-Match": opsETag]),
                         403, "insufficient_scope", field: "scope")
        #expect(try fixture.server.environment.storage.clients.client(id: "ops") == before)
        _ = try await fixture.token(["admin:keys:write"])

        // The operator on the store may (the CLI's path, `signet clients add`).
        _ = try AdminService(environment: fixture.server.environment).createClient(ClientSpec(
            id: "root", isPublic: false, scope: AdminRoutes.scopes.joined(separator: " "), grantTypes: ["client_credentials"],
            allowedResources: [fixture.audience]))
    }

    /// A console role hands out its scopes: `admin:operators:write` without them cannot give one.
    @Test func operatorsWriteCannotHandOutARole() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let scopes = ["admin:operators:read", "admin:operators:write", "admin:users:read"]
        let secret = try Self.adminClient(fixture, "roles", scopes: scopes)
        let token = try await Self.token(fixture, "roles", secret, scopes: scopes)
        let user = try AdminService(environment: fixture.server.environment).createUser(email: "rita@example.com", name: nil, password: nil)
        let read = try await fixture.call("GET", "/admin/v1/users/\(user.id)/operator-role", token: token)
        let etag = try #require(read.header("ETag"), "\(read)")
        let refused = try await fixture.call("PUT", "/admin/v1/users/\(user.id)/operator-role", token: token, json: ["role": "viewer"],
                                             headers: ["If-Match": etag])
        expectAdminError(refused, 403, "insufficient_scope", field: "scope")
        #expect(try fixture.server.environment.storage.operatorRoles.operatorRole(userID: user.id) == nil)
    }

    /// A token carries only what its client has now: a scope taken away is refused, and a client
    /// that lost the admin resource or the grant is no admin at all.
    @Test func tokensLoseWhatTheirClientLoses() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let scopes = ["admin:clients:read", "admin:users:read"]
        let secret = try Self.adminClient(fixture, "shrinking", scopes: scopes)
        let token = try await Self.token(fixture, "shrinking", secret, scopes: scopes)
        #expect(try await fixture.call("GET", "/admin/v1/users", token: token).status == 200)
        let operatorService = AdminService(environment: fixture.server.environment)
        var spec = AdminService.spec(of: try operatorService.client("shrinking"))
        spec.scope = "admin:clients:read"
        _ = try operatorService.updateClient(spec, existing: try operatorService.client("shrinking"))
        // The registry rechecks the store's generation within a second (monotonic clock).
        let cut = try await Self.eventually { try await fixture.call("GET", "/admin/v1/users", token: token).status == 403 }
        #expect(cut)
        expectAdminError(try await fixture.call("GET", "/admin/v1/users", token: token), 403, "insufficient_scope")
        #expect(try await fixture.call("GET", "/admin/v1/clients", token: token).status == 200)

        spec.allowedResources = []
        _ = try operatorService.updateClient(spec, existing: try operatorService.client("shrinking"))
        let gone = try await Self.eventually { try await fixture.call("GET", "/admin/v1/clients", token: token).status == 401 }
        #expect(gone)
        expectAdminError(try await fixture.call("GET", "/admin/v1/clients", token: token), 401, "invalid_token")
    }

    /// Every admin operation (the one list that makes the route table) refuses a token holding
    /// every admin scope but the one it needs: 403 naming that scope, and nothing is audited.
    @Test func everyOperationNeedsItsOwnScope() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let secret = try Self.adminClient(fixture, "almost", scopes: AdminRoutes.scopes)
        let user = try AdminService(environment: fixture.server.environment).createUser(email: "sam@example.com", name: nil, password: nil)
        let audited = try fixture.server.environment.storage.audit.listAudit(Self.everyEvent).count
        var tokens: [String: String] = [:]
        var checked = 0
        for operation in AdminRoutes.operations {
            guard let scope = operation.scope else { continue }
            #expect(AdminRoutes.scopes.contains(scope), "\(operation.operationID) needs \(scope), which is not an admin scope")
            if tokens[scope] == nil {
                tokens[scope] = try await Self.token(fixture, "almost", secret, scopes: AdminRoutes.scopes.filter { $0 != scope })
            }
            // Real ids where a path takes one, so a refusal cannot be a 404 in disguise.
            let path = operation.path.replacingOccurrences(of: "/users/{id}", with: "/users/\(user.id)")
                .replacingOccurrences(of: "/clients/{id}", with: "/clients/ops")
                .replacingOccurrences(of: #"\{[a-z_]+\}"#, with: "x", options: .regularExpression)
            let body: JSONValue? = [.GET, .DELETE].contains(operation.method) ? nil : [:]
            let response = try await fixture.call(operation.method.rawValue, path, token: tokens[scope], json: body, headers: ["If-Match": "\"x\""])
            expectAdminError(response, 403, "insufficient_scope")
            #expect(response.header("WWW-Authenticate") == #"Bearer realm="signet-admin", error="insufficient_scope", scope="\#(scope)""#,
                    "\(operation.method) \(path)")
            checked += 1
        }
        #expect(checked == AdminRoutes.operations.filter { $0.scope != nil }.count && checked > 40, "\(checked)")
        #expect(try fixture.server.environment.storage.audit.listAudit(Self.everyEvent).count == audited)
    }

    static let everyEvent: AuditQuery = { var query = AuditQuery(); query.limit = 10_000; return query }()

    /// Polls `condition` for up to four seconds.
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<40 {
            if try await condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }
}
