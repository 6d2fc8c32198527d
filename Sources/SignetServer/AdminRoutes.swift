import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetPostgres
import SignetSQL
import SignetSQLite
import SignetStore

/// One operation of the admin listener: its method and path, the scope its token needs, what
/// the OpenAPI document says of it (`AdminOpenAPI`), and its handler. The admin route table and
/// the document are both made from `AdminRoutes.operations`, so neither can list an operation
/// the other lacks.
struct AdminOperation: Sendable {
    let method: HTTPMethod
    let path: String
    let operationID: String
    let summary: String
    /// The scope the access token must hold; nil for the unauthenticated probes.
    let scope: String?
    /// The request body's schema name in the document, if the operation takes a body.
    let requestSchema: String?
    /// The success status and its schema name (nil: no body; "text" for the metrics).
    let success: (status: Int, schema: String?)
    /// The query parameters it accepts.
    let query: [String]
    /// Whether the write needs `If-Match`.
    let needsMatch: Bool
    let handler: AdminHandler
}

extension AdminOperation {
    /// An operation whose handler runs on the `BlockingWork` pool (store work, password hashing).
    init(method: HTTPMethod, path: String, operationID: String, summary: String, scope: String?, requestSchema: String?,
         success: (status: Int, schema: String?), query: [String], needsMatch: Bool,
         handle: @escaping @Sendable (AdminCall) throws -> HTTPResponse) {
        self.init(method: method, path: path, operationID: operationID, summary: summary, scope: scope, requestSchema: requestSchema,
                  success: success, query: query, needsMatch: needsMatch, handler: .blocking(handle))
    }

    /// An operation that awaits (an upstream call, such as Apple's token revocation when a user is
    /// deleted); it runs its own store work on `BlockingWork` (`AdminCall.blocking`).
    static func awaiting(method: HTTPMethod, path: String, operationID: String, summary: String, scope: String, requestSchema: String?,
                         success: (status: Int, schema: String?), query: [String], needsMatch: Bool,
                         handle: @escaping @Sendable (AdminCall) async throws -> HTTPResponse) -> AdminOperation {
        AdminOperation(method: method, path: path, operationID: operationID, summary: summary, scope: scope, requestSchema: requestSchema,
                       success: success, query: query, needsMatch: needsMatch, handler: .awaiting(handle))
    }
}

/// How an operation's handler runs.
enum AdminHandler: Sendable {
    /// Synchronous, on the `BlockingWork` pool (the probes inline on the HTTP thread).
    case blocking(@Sendable (AdminCall) throws -> HTTPResponse)
    /// Asynchronous, as a task; its store work goes through `AdminCall.blocking`.
    case awaiting(@Sendable (AdminCall) async throws -> HTTPResponse)
}

/// What a handler gets: the request, the service acting as the token's client.
struct AdminCall: Sendable {
    let request: HTTPRequest
    let service: AdminService
    let environment: ServerEnvironment
    let metrics: ServerMetrics

    /// The `{id}` resource a write changes, once `If-Match` names its current ETag (428, 412).
    func matched<Resource>(_ load: (AdminService, String) throws -> Resource, etag: (Resource) -> String) throws -> Resource {
        try AdminRequest.noQuery(request)
        let resource = try load(service, try AdminRequest.id(request))
        try AdminRequest.requireMatch(request, etag: etag(resource))
        return resource
    }

    /// `work` on the `BlockingWork` pool, for an awaiting handler's store work.
    func blocking<T: Sendable>(_ work: @escaping @Sendable (AdminCall) throws -> T) async throws -> T {
        try await BlockingWork.run { try work(self) }
    }
}

/// Who an admin token acts for: an admin client (client_credentials) or an operator signed in
/// to the console, and the admin scopes it may use now.
struct AdminPrincipal: Sendable {
    /// The audit actor: the admin client's id, or `console:` + the operator's user id.
    let actor: String
    /// The admin scopes this token may use now.
    let scopes: Set<String>
    /// The operator, for a console session.
    let userID: String?

    /// Whether the principal may use `scope`.
    func may(_ scope: String) -> Bool { scopes.contains(scope) }

    /// Refuses a missing scope (RFC 6750 §3.1: 403 `insufficient_scope`).
    func require(_ scope: String) throws(AdminError) {
        guard may(scope) else { throw AdminError.insufficientScope(scope) }
    }
}

/// Verifies admin access tokens: Signet's own RFC 9068 tokens for the admin audience, issued by
/// `client_credentials` to a confidential client that still exists, is still allowed that grant
/// and the admin API as a resource, and still has the operation's scope (a token carries only the
/// scopes its client has now, so a scope taken away stops working at once). For the console it
/// decides what a signed-in operator may do (`operatorPrincipal`): the scopes its sign-in holds
/// *and* the operator's role grants now (`OperatorRole`), so taking a role away ends its power at
/// once, and nothing once the sign-in's grant is revoked. The admin
/// API and the console both ask this one type.
struct AdminAuthorizer: Sendable {
    let verifier: AccessTokenVerifier
    /// The admin audience (`audience(issuer:)`), which an admin client must still list as a resource.
    let audience: String
    let clients: ClientRegistry
    let users: any UserStore
    let roles: any OperatorRoleStore
    let refreshTokens: any RefreshTokenStore
    let clock: any Clock

    /// The `aud` an admin token must carry: ask for it with `resource` at `/token` (RFC 8707),
    /// and list it in the admin client's resources.
    static func audience(issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/admin/v1"
    }

    /// Who the request's token acts for, once it holds `scope`, or the refusal (RFC 6750 §3.1).
    func authorize(_ request: HTTPRequest, scope: String) throws(AdminError) -> AdminPrincipal {
        guard let header = request.headers["Authorization"] else { throw AdminError.missingToken }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        // RFC 6750 §2.1: the scheme is case-insensitive; any other scheme is no bearer token at all.
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw AdminError.missingToken }
        let principal = try authenticate(String(parts[1]).trimmingCharacters(in: .whitespaces))
        try principal.require(scope)
        return principal
    }

    /// The admin client `token` acts for and what it may do, or the refusal. A console sign-in's
    /// token (for an operator, not its client) is refused: the console's session is its own
    /// server-side handle (`ConsoleSessions`), never a bearer token here.
    func authenticate(_ token: String) throws(AdminError) -> AdminPrincipal {
        let jwt: VerifiedJWT
        do { jwt = try verifier.verify(token) } catch {
            throw AdminError.invalidToken("The access token is invalid, expired or not for the admin API.")
        }
        let granted = Set((jwt.claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
        guard let clientID = jwt.claims["client_id"]?.stringValue else {
            throw AdminError.invalidToken("The admin API takes only client_credentials tokens.")
        }
        // Only a client acting for itself (RFC 6749 §4.4: sub is the client) is an admin.
        guard jwt.claims.sub == clientID else {
            throw AdminError.invalidToken("The admin API takes only client_credentials tokens.")
        }
        let client: Client?
        do { client = try clients.client(id: clientID) } catch { throw AdminError.failure(error) }
        guard let client, !client.isPublic else { throw AdminError.invalidToken("The token's client is unknown or not confidential.") }
        guard client.grantTypes.contains(.clientCredentials), client.allowedResources.contains(audience) else {
            throw AdminError.invalidToken("The token's client is no longer allowed client_credentials for the admin API.")
        }
        return AdminPrincipal(actor: clientID, scopes: granted.intersection(client.allowedScope.tokens), userID: nil)
    }

    /// The operator of a console session: its sign-in's grant must be active (revoked with the
    /// operator's sessions and tokens), the operator must still exist, be enabled and hold a role,
    /// and its scopes are those `granted` *and* the role allows now.
    func operatorPrincipal(userID: String, grantID: String, granted: Set<String>) throws(AdminError) -> AdminPrincipal {
        let role: OperatorRole?
        do {
            guard try refreshTokens.isGrantActive(id: grantID, now: clock.now) else {
                throw AdminError.invalidToken("The console session has been revoked.")
            }
            guard let user = try users.user(id: userID), user.disabledAt == nil else {
                throw AdminError.invalidToken("The operator's account is gone or disabled.")
            }
            role = try roles.operatorRole(userID: user.id).flatMap { OperatorRole(rawValue: $0.role) }
        } catch let error as AdminError { throw error } catch { throw AdminError.failure(error) }
        guard let role else { throw AdminError.noRole }
        return AdminPrincipal(actor: "console:" + userID, scopes: granted.intersection(role.scopes), userID: userID)
    }
}

extension SignetApplication {
    /// The admin listener's route table: the probes and every `/admin/v1` operation, each line
    /// of kind `.admin` (errors as `{error, field, message}`), counted under the `admin` listener.
    func adminRouteTable() -> [Route] {
        let authorizer = adminAuthorizer()
        let service = AdminService(environment: environment, federation: federation)
        var table = RouteTableBuilder(issuer: issuer, assets: brandAssets, metrics: metrics, listener: "admin")
        let metrics = self.metrics, environment = self.environment
        for operation in AdminRoutes.operations {
            table.add([operation.method], operation.path, .admin) { errors in
                switch operation.handler {
                case .blocking(let handle):
                    let run: @Sendable (HTTPRequest) -> HTTPResponse = errors.admin { request in
                        var acting = service
                        if let scope = operation.scope { acting = service.acting(as: try authorizer.authorize(request, scope: scope)) }
                        return try handle(AdminCall(request: request, service: acting, environment: environment, metrics: metrics))
                    }
                    guard operation.scope != nil else { return .sync(run) }
                    // Store work and password hashing stay off the HTTP threads.
                    return .async { request in
                        do { return try await BlockingWork.run { run(request) } } catch { return ErrorRenderer.admin(.serverError) }
                    }
                case .awaiting(let handle):
                    return .async(errors.adminAwaiting { request in
                        var acting = service
                        if let scope = operation.scope {
                            acting = service.acting(as: try await BlockingWork.run { try authorizer.authorize(request, scope: scope) })
                        }
                        return try await handle(AdminCall(request: request, service: acting, environment: environment, metrics: metrics))
                    })
                }
            }
        }
        addConsoleRoutes(&table)
        return table.routes
    }

    /// The one authorizer of the admin API and the console.
    func adminAuthorizer() -> AdminAuthorizer {
        let audience = AdminAuthorizer.audience(issuer: issuer)
        return AdminAuthorizer(verifier: AccessTokenVerifier(server: authorizationServer, audience: audience), audience: audience,
                               clients: authorizationServer.clients, users: environment.storage.users, roles: environment.storage.operatorRoles,
                               refreshTokens: environment.storage.refreshTokens, clock: environment.clock)
    }

    /// Each method and path of the admin API (the `.admin` lines of the admin listener's table,
    /// not the console's pages), for the test that keeps the OpenAPI document and the table in step.
    public func adminRouteList() -> [(method: String, path: String)] {
        adminRouteTable().filter { $0.kind == .admin }.flatMap { route in route.methods.map { (method: $0.rawValue, path: route.path) } }
    }
}

/// The admin listener's paths and its operations on clients, users, keys and the audit log.
enum AdminRoutes {
    static let metrics = "/metrics"
    static let healthz = "/healthz"
    static let readyz = "/readyz"
    // Each path below the API's prefix is its parent's path plus one segment.
    static let prefix = "/admin/v1"
    static let openAPI = prefix + "/openapi.json"
    static let clients = prefix + "/clients"
    static let client = clients + "/{id}"
    static let clientSecret = client + "/secret"
    static let users = prefix + "/users"
    static let user = users + "/{id}"
    static let userDisable = user + "/disable"
    static let userEnable = user + "/enable"
    static let userRevoke = user + "/revoke"
    static let userUnlockTOTP = user + "/unlock-totp"
    static let keys = prefix + "/keys"
    static let keysRotate = keys + "/rotate"
    static let key = keys + "/{id}"
    static let keyRetire = keys + "/{id}/retire"
    static let audit = prefix + "/audit"
    static let userSessions = user + "/sessions"
    static let userSession = userSessions + "/{session}"
    static let userGrants = user + "/grants"
    static let userGrant = userGrants + "/{grant}"
    static let userSecondFactors = user + "/second-factors"
    static let userConsents = user + "/consents"
    static let userConsent = userConsents + "/{client}"
    static let connections = prefix + "/connections"
    static let connection = connections + "/{id}"

    /// Every operation of the admin listener, in document order.
    static let operations: [AdminOperation] = probeOperations() + clientOperations() + userOperations() + sessionOperations()
        + consentOperations() + connectionOperations() + keyOperations() + auditOperations() + organizationOperations()
        + operatorRoleOperations() + domainOperations() + [openAPIOperation]

    private static func probeOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: metrics, operationID: "metrics", summary: "Prometheus metrics (text format 0.0.4).",
                           scope: nil, requestSchema: nil, success: (200, "text"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return call.metrics.response()
            },
            AdminOperation(method: .GET, path: healthz, operationID: "healthz", summary: "Liveness: the process answers.",
                           scope: nil, requestSchema: nil, success: (200, "Health"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return HTTPResponse.admin(["status": "ok"])
            },
            AdminOperation(method: .GET, path: readyz, operationID: "readyz",
                           summary: "Readiness: the database answers, its migrations are current, and every required algorithm has a signing key. 503 with the failing check otherwise.",
                           scope: nil, requestSchema: nil, success: (200, "Ready"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return readiness(call.environment)
            },
        ]
    }

    private static let openAPIOperation = AdminOperation(
        method: .GET, path: openAPI, operationID: "openapi", summary: "This OpenAPI 3.1 document.",
        scope: nil, requestSchema: nil, success: (200, "OpenAPI"), query: [], needsMatch: false) { call in
        try AdminRequest.noQuery(call.request)
        var response = HTTPResponse.json(AdminOpenAPI.document(AdminRoutes.operations))
        response.headers.set("Cache-Control", "no-cache")
        return response
    }

    /// What every admin scope begins with; `AdminService.requireHolds` treats any such scope as admin power.
    static let scopePrefix = "admin:"

    /// The admin scopes, least privilege per resource and direction.
    static let scopes = ["admin:clients:read", "admin:clients:write", "admin:users:read", "admin:users:write",
                         "admin:sessions:read", "admin:sessions:write", "admin:consents:read", "admin:consents:write",
                         "admin:connections:read", "admin:keys:read", "admin:keys:write", "admin:audit:read",
                         "admin:orgs:read", "admin:orgs:write", operatorsRead, operatorsWrite]

    // MARK: probes

    /// `/readyz`: each check, and 503 when one fails.
    static func readiness(_ environment: ServerEnvironment) -> HTTPResponse {
        var failed: (check: String, reason: String)?
        do {
            let version = try schemaVersion(environment.storage)
            if let version, version != SQLMigrations.latest {
                failed = ("migrations", "the database is at version \(version), this build expects \(SQLMigrations.latest)")
            }
        } catch {
            failed = ("database", "the database cannot be read")
        }
        if failed == nil {
            for algorithm in environment.requiredAlgorithms {
                do { _ = try environment.keyRing.signer(for: algorithm) } catch {
                    failed = ("signing_keys", "no signing key for \(algorithm.rawValue) is loaded")
                    break
                }
            }
        }
        guard let failed else { return HTTPResponse.admin(["status": "ready"]) }
        return HTTPResponse.admin(["status": "not_ready", "check": .string(failed.check), "reason": .string(failed.reason)], status: 503)
    }

    /// The applied schema version (nil for a store that is not SQL).
    static func schemaVersion(_ storage: any SignetStorage) throws -> Int? {
        if let sqlite = storage as? SQLiteStorage { return try sqlite.currentVersion() }
        if let postgres = storage as? PostgresStorage { return try postgres.currentVersion() }
        return nil
    }

    // MARK: clients

    static let clientCreateFields: Set<String> = [
        "id", "name", "type", "redirect_uris", "post_logout_redirect_uris", "scope", "grant_types", "first_party",
        "token_endpoint_auth_method", "id_token_algorithm", "access_token_lifetime", "refresh_token_lifetime",
        "id_token_lifetime", "allow_headless", "resources", "application_type",
    ]
    static let clientUpdateFields = clientCreateFields.subtracting(["id", "type"])

    /// Applies the members of `body` to `spec` (only those present).
    static func apply(_ body: AdminBody, to spec: inout ClientSpec) throws(AdminError) {
        if body.has("name") { spec.name = try body.string("name") }
        if let value = try body.strings("redirect_uris") { spec.redirectURIs = value }
        if let value = try body.strings("post_logout_redirect_uris") { spec.postLogoutRedirectURIs = value }
        if body.has("scope") { spec.scope = try body.string("scope") }
        if body.has("grant_types") { spec.grantTypes = try body.strings("grant_types") }
        if let value = try body.bool("first_party") { spec.firstParty = value }
        if body.has("token_endpoint_auth_method") { spec.authenticationMethod = try body.string("token_endpoint_auth_method") }
        if body.has("id_token_algorithm") { spec.idTokenAlgorithm = try body.string("id_token_algorithm") }
        if body.has("access_token_lifetime") { spec.lifetimes.accessToken = try body.integer("access_token_lifetime") }
        if body.has("refresh_token_lifetime") { spec.lifetimes.refreshToken = try body.integer("refresh_token_lifetime") }
        if body.has("id_token_lifetime") { spec.lifetimes.idToken = try body.integer("id_token_lifetime") }
        if let value = try body.bool("allow_headless") { spec.allowHeadless = value }
        if let value = try body.strings("resources") { spec.allowedResources = value }
        if let value = try body.string("application_type") {
            guard let type = ApplicationType(rawValue: value) else { throw AdminError.invalid("application_type", "must be native, web, service or api") }
            spec.applicationType = type
        }
    }

    static func clientOperations() -> [AdminOperation] {
        [
            listOperation(clients, "listClients", "Clients ordered by id; `filter` matches the id or name (case-insensitive), `cursor` is the previous page's next_cursor.",
                          scope: "admin:clients:read", schema: "ClientList") { service, page in
                try service.clients(limit: page.limit, cursor: page.cursor, filter: page.filter)
            },
            createOperation(clients, "createClient",
                            "Registers a client. A confidential client's secret is in the answer, once; Signet keeps only its hash.",
                            scope: "admin:clients:write", requestSchema: "ClientCreate", schema: "ClientCreated",
                            fields: clientCreateFields) { call, body in
                let type = try body.string("type") ?? "public"
                guard type == "public" || type == "confidential" else { throw AdminError.invalid("type", "must be public or confidential") }
                var spec = ClientSpec(id: try body.requiredString("id"), isPublic: type == "public")
                try apply(body, to: &spec)
                let (record, secret) = try call.service.createClient(spec)
                return (record.id, ["client": AdminService.json(record), "client_secret": secret.map(JSONValue.string) ?? .null],
                        AdminService.etag(record))
            },
            getOperation(client, "getClient", "One client, with its ETag.", scope: "admin:clients:read", schema: "Client",
                         load: { try $0.client($1) }, json: AdminService.json, etag: AdminService.etag),
            clientWrite(.PATCH, client, "updateClient",
                        "Changes the members given (not id or type); the client must still pass every registration rule.",
                        requestSchema: "ClientUpdate", success: (200, "Client")) { call, existing in
                let body = try AdminBody(call.request, allowed: clientUpdateFields)
                var spec = AdminService.spec(of: existing)
                try apply(body, to: &spec)
                let record = try call.service.updateClient(spec, existing: existing)
                return HTTPResponse.admin(AdminService.json(record), etag: AdminService.etag(record))
            },
            clientWrite(.DELETE, client, "deleteClient", "Deletes the client.", success: (204, nil)) { call, existing in
                try call.service.deleteClient(existing.id)
                return HTTPResponse.empty(status: 204)
            },
            clientWrite(.POST, clientSecret, "rotateClientSecret",
                        "A new secret for a confidential client, shown once; the previous one stops working.",
                        success: (200, "ClientSecret")) { call, existing in
                let secret = try call.service.rotateSecret(existing.id)
                let record = try call.service.client(existing.id)
                return HTTPResponse.admin(["client_secret": .string(secret)], etag: AdminService.etag(record))
            },
        ]
    }

    // MARK: users

    static func userOperations() -> [AdminOperation] {
        [
            listOperation(users, "listUsers", "Users ordered by id; `filter` matches the email or name (case-insensitive).",
                          scope: "admin:users:read", schema: "UserList") { service, page in
                try service.users(limit: page.limit, cursor: page.cursor, filter: page.filter)
            },
            createOperation(users, "createUser", "Creates a local account; without a password the user signs in another way.",
                            scope: "admin:users:write", requestSchema: "UserCreate", schema: "User",
                            fields: ["email", "name", "password"]) { call, body in
                let user = try call.service.createUser(email: try body.requiredString("email"), name: try body.string("name"),
                                                       password: try body.string("password"))
                return (user.id, AdminService.json(user), AdminService.etag(user))
            },
            getOperation(user, "getUser", "One user, with its ETag.", scope: "admin:users:read", schema: "User",
                         load: { try $0.user($1) }, json: AdminService.json, etag: AdminService.etag),
            matchedOperation(.PATCH, user, "updateUser", "Changes the profile members given: name, given_name, family_name, email_verified.",
                             scope: "admin:users:write", requestSchema: "UserUpdate", success: (200, "User"),
                             load: { try $0.user($1) }, etag: AdminService.etag) { call, user in
                let body = try AdminBody(call.request, allowed: ["name", "given_name", "family_name", "email_verified"])
                for field in ["name", "given_name", "family_name"] {
                    if let text = try body.string(field), text.isEmpty || text.count > 200 { throw AdminError.invalid(field, "must be 1 to 200 characters") }
                }
                let updated = try call.service.updateUser(
                    user, name: body.has("name") ? try body.string("name") : user.name,
                    givenName: body.has("given_name") ? try body.string("given_name") : user.givenName,
                    familyName: body.has("family_name") ? try body.string("family_name") : user.familyName,
                    emailVerified: try body.bool("email_verified") ?? user.emailVerified)
                return HTTPResponse.admin(AdminService.json(updated), etag: AdminService.etag(updated))
            },
            userAction(.POST, userDisable, "disableUser", "Disables the user and ends its sessions and tokens.", needsMatch: true) { call, user in
                let updated = try call.service.setDisabled(user, true).user
                return HTTPResponse.admin(AdminService.json(updated), etag: AdminService.etag(updated))
            },
            userAction(.POST, userEnable, "enableUser", "Enables a disabled user (ended sessions stay ended).", needsMatch: true) { call, user in
                let updated = try call.service.setDisabled(user, false).user
                return HTTPResponse.admin(AdminService.json(updated), etag: AdminService.etag(updated))
            },
            userAction(.POST, userRevoke, "revokeUserSessions",
                       "Ends every session of the user and revokes every grant (its refresh tokens); the user stays enabled.",
                       needsMatch: false, schema: "RevokeResult") { call, user in
                let result = try call.service.revokeSessionsAndTokens(user)
                return HTTPResponse.admin(["sessions": .int(Int64(result.sessions)), "grants": .int(Int64(result.grants))])
            },
            userAction(.POST, userUnlockTOTP, "unlockUserTOTP",
                       "Unlocks the user's authenticator app after mfa.lock_after wrong codes in a row; unlocked is false when it was not locked.",
                       needsMatch: false, schema: "UnlockResult") { call, user in
                HTTPResponse.admin(["unlocked": .bool(try call.service.unlockTOTP(user))])
            },
            AdminOperation.awaiting(
                method: .DELETE, path: user, operationID: "deleteUser",
                summary: "Deletes the account as the account page does (AccountDeletion): its links, sessions, consents and tokens, and revokes a linked Apple identity's token at Apple.",
                scope: "admin:users:write", requestSchema: nil, success: (204, nil), query: [], needsMatch: true) { call in
                let user = try await call.blocking { try $0.matched({ try $0.user($1) }, etag: AdminService.etag) }
                try await call.service.deleteUser(user)
                return HTTPResponse.empty(status: 204)
            },
        ]
    }

    /// An action on one user (`{id}`), with `If-Match` when it changes the user.
    private static func userAction(_ method: HTTPMethod, _ path: String, _ id: String, _ summary: String, needsMatch: Bool,
                                   schema: String? = "User", status: Int = 200,
                                   _ body: @escaping @Sendable (AdminCall, UserRecord) throws -> HTTPResponse) -> AdminOperation {
        guard !needsMatch else {
            return matchedOperation(method, path, id, summary, scope: "admin:users:write", success: (status, schema),
                                    load: { try $0.user($1) }, etag: AdminService.etag, body)
        }
        return AdminOperation(method: method, path: path, operationID: id, summary: summary, scope: "admin:users:write", requestSchema: nil,
                              success: (status, schema), query: [], needsMatch: false) { call in
            let user = try call.service.user(try AdminRequest.id(call.request))
            try AdminRequest.noQuery(call.request)
            return try body(call, user)
        }
    }

    /// A write to one client (`{id}`), with `If-Match`.
    private static func clientWrite(_ method: HTTPMethod, _ path: String, _ id: String, _ summary: String, requestSchema: String? = nil,
                                    success: (status: Int, schema: String?),
                                    _ body: @escaping @Sendable (AdminCall, ClientRecord) throws -> HTTPResponse) -> AdminOperation {
        matchedOperation(method, path, id, summary, scope: "admin:clients:write", requestSchema: requestSchema, success: success,
                         load: { try $0.client($1) }, etag: AdminService.etag, body)
    }

    // MARK: keys

    static func keyOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: keys, operationID: "listKeys", summary: "Every signing key, oldest first, with its status (never its private half).",
                           scope: "admin:keys:read", requestSchema: nil, success: (200, "KeyList"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return HTTPResponse.admin(["items": .array(try call.service.keys())])
            },
            AdminOperation(method: .GET, path: key, operationID: "getKey", summary: "One signing key's public facts and status (never its private half).",
                           scope: "admin:keys:read", requestSchema: nil, success: (200, "Key"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return HTTPResponse.admin(try call.service.key(try AdminRequest.id(call.request)))
            },
            AdminOperation(method: .POST, path: keysRotate, operationID: "rotateKeys",
                           summary: "Publishes a new key per algorithm (or the one given) that signs after prepublish_seconds (default keys.prepublish).",
                           scope: "admin:keys:write", requestSchema: "KeyRotate", success: (200, "KeyList"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                let body = try AdminBody(call.request, allowed: ["algorithm", "prepublish_seconds"])
                let rotated = try call.service.rotateKeys(algorithm: try body.string("algorithm"), prepublishSeconds: try body.integer("prepublish_seconds"))
                return HTTPResponse.admin(["items": .array(rotated)])
            },
            AdminOperation(method: .POST, path: keyRetire, operationID: "retireKey",
                           summary: "Retires a key: it stops signing now and stays published while tokens it signed may live; a replacement is made if it was the only signer.",
                           scope: "admin:keys:write", requestSchema: nil, success: (200, "KeyRetired"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                let replacement = try call.service.retireKey(try AdminRequest.id(call.request))
                return HTTPResponse.admin(["replacement": replacement ?? .null])
            },
        ]
    }

    // MARK: audit

    static func auditOperations() -> [AdminOperation] {
        [
            AdminOperation(method: .GET, path: audit, operationID: "listAudit",
                           summary: "Audit events, newest first, read one page at a time from the store; `cursor` is the previous page's next_cursor; `event`, `subject` (a user id), `client`, `actor` (cli, an admin client's id, console:USER) and `since` (RFC 3339) filter.",
                           scope: "admin:audit:read", requestSchema: nil, success: (200, "AuditList"),
                           query: ["limit", "cursor", "event", "subject", "client", "actor", "since"], needsMatch: false) { call in
                let query = try AdminRequest.query(call.request, allowed: ["limit", "cursor", "event", "subject", "client", "actor", "since"])
                let page = try AdminRequest.page(query)
                var filter = AuditQuery(event: query["event"], subjectID: query["subject"], clientID: query["client"], actor: query["actor"])
                for name in ["event", "subject", "client", "actor"] where query[name].map({ $0.isEmpty || $0.utf8.count > 256 }) == true {
                    throw AdminError.invalid(name, "must be 1 to 256 bytes")
                }
                if let since = query["since"] {
                    guard let date = AdminRequest.date(since) else { throw AdminError.invalid("since", "must be an RFC 3339 time such as 2026-12-01T00:00:00Z") }
                    filter.since = date
                }
                let result = try call.service.auditEvents(limit: page.limit, cursor: page.cursor, filter: filter)
                return HTTPResponse.admin(["items": .array(result.items), "next_cursor": result.next.map(JSONValue.string) ?? .null])
            },
        ]
    }
}

extension AdminRoutes {
    /// A paged list: `limit`, `cursor` (and `filter`), answered as `{items, next_cursor}`.
    static func listOperation(_ path: String, _ id: String, _ summary: String, scope: String, schema: String, filter: Bool = true,
                              _ list: @escaping @Sendable (AdminService, (limit: Int, cursor: String?, filter: String?)) throws
                                  -> (items: [JSONValue], next: String?)) -> AdminOperation {
        AdminOperation(method: .GET, path: path, operationID: id, summary: summary, scope: scope, requestSchema: nil,
                       success: (200, schema), query: filter ? ["limit", "cursor", "filter"] : ["limit", "cursor"], needsMatch: false) { call in
            let result = try list(call.service, try AdminRequest.page(call.request, filter: filter))
            return HTTPResponse.admin(["items": .array(result.items), "next_cursor": result.next.map(JSONValue.string) ?? .null])
        }
    }

    /// A `POST` to the collection at `path` that creates one resource from a body of `fields`:
    /// 201 with the resource's ETag and its `Location` under `path`.
    static func createOperation(_ path: String, _ id: String, _ summary: String, scope: String, requestSchema: String, schema: String,
                                fields: Set<String>,
                                _ create: @escaping @Sendable (AdminCall, AdminBody) throws -> (id: String, json: JSONValue, etag: String))
        -> AdminOperation {
        AdminOperation(method: .POST, path: path, operationID: id, summary: summary, scope: scope, requestSchema: requestSchema,
                       success: (201, schema), query: [], needsMatch: false) { call in
            try AdminRequest.noQuery(call.request)
            let created = try create(call, try AdminBody(call.request, allowed: fields))
            var response = HTTPResponse.admin(created.json, status: 201, etag: created.etag)
            response.headers.set("Location", path + "/" + created.id)
            return response
        }
    }

    /// A write to the `{id}` resource: `If-Match` must name its current ETag (428, 412) before
    /// `body` runs.
    static func matchedOperation<Resource>(_ method: HTTPMethod, _ path: String, _ id: String, _ summary: String, scope: String,
                                           requestSchema: String? = nil, success: (status: Int, schema: String?),
                                           load: @escaping @Sendable (AdminService, String) throws -> Resource,
                                           etag: @escaping @Sendable (Resource) -> String,
                                           _ body: @escaping @Sendable (AdminCall, Resource) throws -> HTTPResponse) -> AdminOperation {
        AdminOperation(method: method, path: path, operationID: id, summary: summary, scope: scope, requestSchema: requestSchema,
                       success: success, query: [], needsMatch: true) { call in
            try body(call, try call.matched(load, etag: etag))
        }
    }

    /// One resource by `{id}`, with its ETag.
    static func getOperation<Resource>(_ path: String, _ id: String, _ summary: String, scope: String, schema: String,
                                       load: @escaping @Sendable (AdminService, String) throws -> Resource,
                                       json: @escaping @Sendable (Resource) -> JSONValue,
                                       etag: @escaping @Sendable (Resource) -> String) -> AdminOperation {
        AdminOperation(method: .GET, path: path, operationID: id, summary: summary, scope: scope, requestSchema: nil,
                       success: (200, schema), query: [], needsMatch: false) { call in
            try AdminRequest.noQuery(call.request)
            let resource = try load(call.service, try AdminRequest.id(call.request))
            return HTTPResponse.admin(json(resource), etag: etag(resource))
        }
    }
}

extension AdminRequest {
    /// Refuses any query parameter on an operation that takes none.
    static func noQuery(_ request: HTTPRequest) throws(AdminError) { _ = try query(request, allowed: []) }
}
