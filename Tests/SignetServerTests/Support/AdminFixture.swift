import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetServer
@testable import SignetTesting
import Testing

/// A TestServer with its admin listener and a confidential admin client (`ops`) that may ask for
/// every admin scope, plus a second one (`viewer`) limited to the read scopes.
struct AdminFixture {
    let server: TestServer
    let secret: String
    let viewerSecret: String
    let client = HTTPTestClient()
    static let allScopes = ["admin:clients:read", "admin:clients:write", "admin:users:read", "admin:users:write",
                            "admin:sessions:read", "admin:sessions:write", "admin:consents:read", "admin:consents:write",
                            "admin:connections:read", "admin:keys:read", "admin:keys:write", "admin:audit:read"]

    init(configure: (inout SignetConfiguration) throws -> Void = { _ in }) throws {
        let server = try TestServer(adminListener: true, configure: configure)
        // Keys made "now" can activate a rounded microsecond after the frozen clock.
        server.clock.advance(by: 1)
        try self.init(server: server)
    }

    /// The admin clients on a server that runs its admin listener (`Interactive(adminListener: true)`).
    init(server: TestServer) throws {
        self.server = server
        let registration = ClientRegistration(server: server.application.authorizationServer)
        let audience = server.issuer + "/admin/v1"
        secret = try registration.register(ClientSpec(id: "ops", isPublic: false, scope: Self.allScopes.joined(separator: " "),
                                                      grantTypes: ["client_credentials"], allowedResources: [audience])).secret ?? ""
        viewerSecret = try registration.register(ClientSpec(
            id: "viewer", isPublic: false, scope: "admin:clients:read admin:users:read",
            grantTypes: ["client_credentials"], allowedResources: [audience])).secret ?? ""
    }

    func stop() { server.stop() }

    var audience: String { server.issuer + "/admin/v1" }

    /// An access token from `/token` (client_credentials) for `client`, with `scopes` and the admin audience.
    func token(_ scopes: [String] = AdminFixture.allScopes, client id: String = "ops", resource: String? = "") async throws -> String {
        var form = [("grant_type", "client_credentials"), ("scope", scopes.joined(separator: " "))]
        if let resource { form.append(("resource", resource.isEmpty ? audience : resource)) }
        let response = try await client.post(server.url(Routes.token), form: form,
                                             headers: APIFixture.basic(id, id == "ops" ? secret : viewerSecret))
        guard response.status == 200, let token = try response.json()["access_token"]?.stringValue else {
            throw TestingError("no admin token: \(response)")
        }
        return token
    }

    /// A request to the admin listener.
    func call(_ method: String, _ path: String, token: String?, json: JSONValue? = nil, body: [UInt8]? = nil,
              headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        if let token { headers.set("Authorization", "Bearer \(token)") }
        var bytes = body ?? []
        if let json {
            bytes = json.serialized()
            if !headers.contains("Content-Type") { headers.set("Content-Type", "application/json") }
        }
        return try await Self.raw(method, path, port: server.adminPort ?? 0, body: bytes, headers: headers)
    }

    /// A request to the public listener (for `/token` with a refused secret).
    func publicCall(_ method: String, _ path: String, form: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        headers.set("Content-Type", "application/x-www-form-urlencoded")
        return try await Self.raw(method, path, port: server.port, body: Array(FormEncoding.encode(form).utf8), headers: headers)
    }

    static func raw(_ method: String, _ path: String, port: Int, body: [UInt8], headers: HTTPHeaders) async throws -> TestResponse {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw TestingError("bad path \(path)") }
        return try await HTTPTestClient().send(method: method, url: url, body: body.isEmpty ? nil : body, headers: headers)
    }
}

/// Every admin error: the status, the code, `no-store`, and the field when one is named.
func expectAdminError(_ response: TestResponse, _ status: Int, _ error: String, field: String? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
    let json = try? response.json()
    #expect(json?["error"]?.stringValue == error, "\(response)", sourceLocation: sourceLocation)
    #expect(json?["message"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
    if let field { #expect(json?["field"]?.stringValue == field, "\(response)", sourceLocation: sourceLocation) }
    #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
}
