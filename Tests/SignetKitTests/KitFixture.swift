import Foundation
import SignetClientCore
import SignetCore
import SignetHTTP
import SignetKit
import SignetServer
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// A real Signet with a public native client (loopback redirect, any port) and one user, plus a
/// second listener on the same application whose access log counts `/token` requests.
final class KitFixture: Sendable {
    static let email = "alice@example.com"
    static let password = "correct horse battery"
    static let clientID = "native"
    static let registeredRedirect = "http://127.0.0.1/callback"

    let server: TestServer
    let userID: String
    /// A second listener on the same application; its access log counts requests.
    let counted: HTTPServer
    let countedBase: String
    private let requests = RequestLog()
    /// The client's clock: the server's manual clock, so both move together.
    var clock: @Sendable () -> Date { { [server] in server.clock.now } }

    init() throws {
        server = try TestServer()
        server.clock.advance(by: 1)
        let now = server.clock.now
        try server.environment.storage.clients.upsertClient(ClientRecord(
            id: Self.clientID, name: "Native", isPublic: true, firstParty: true,
            redirectURIs: [Self.registeredRedirect], postLogoutRedirectURIs: ["http://127.0.0.1/logged-out"],
            allowedScopes: ["openid", "profile", "email", "offline_access"],
            grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        userID = try server.environment.makeUserService().create(email: Self.email, name: "Alice", password: Self.password).id
        let port = try FreePort.pick()
        countedBase = "http://127.0.0.1:\(port)"
        var configuration = HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(port)")], threadCount: 2)
        let log = requests
        configuration.accessLog = { entry in log.lines.withLock { $0.append("\(entry.method) \(entry.path)") } }
        counted = HTTPServer(configuration: configuration, router: server.application.makeRouter())
        try counted.start()
    }

    func stop() {
        counted.stop()
        server.stop()
    }

    /// How many `POST /token` requests the counting listener saw.
    var tokenRequests: Int { requests.lines.withLock { $0.filter { $0 == "POST /token" }.count } }

    var configuration: ClientConfiguration {
        ClientConfiguration(issuer: server.issuer, clientID: Self.clientID, redirectURI: Self.registeredRedirect)
    }

    /// A client from real discovery whose token endpoint is the counting listener.
    func client(storage: any TokenStorage = InMemoryTokenStorage()) async throws -> SignInClient {
        let discovered = try await ProviderConfiguration.discover(issuer: server.issuer, http: OutboundHTTP())
        var metadata = discovered.metadata
        metadata.tokenEndpoint = URL(string: countedBase + Routes.token)
        let provider = ProviderConfiguration(metadata: metadata, issuerParameterSupported: discovered.issuerParameterSupported)
        return try SignInClient(configuration: configuration, provider: provider, storage: storage, clock: clock)
    }

    /// The user signs in with a cookie-keeping browser; returns the redirect the server sent
    /// (to the app's loopback address), without delivering it.
    func authorize(_ request: SignInRequest, browser: FormBrowser = FormBrowser()) async throws -> RedirectTarget {
        let page = try await browser.open(request.authorizationURL)
        guard page.redirect == nil else { return try page.requireRedirect() }   // prompt=none and friends
        let outcome = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": Self.email, "password": Self.password])
        return try outcome.requireRedirect()
    }

    /// The whole sign-in through a loopback listener, the redirect delivered over HTTP.
    func signIn(_ client: SignInClient) async throws -> AuthState {
        let listener = try LoopbackListener()
        let request = try client.beginSignIn(redirectURI: listener.redirectURI)
        async let callback = listener.waitForCallback(timeout: 30, accepting: { request.isAddressed($0) })
        let redirect = try await authorize(request)
        let delivered = try await HTTPTestClient().get(try #require(redirect.url))
        #expect(delivered.status == 200)
        #expect(delivered.text.contains("You can close this window"))
        return try await client.completeSignIn(callback: try await callback)
    }
}

/// Request lines seen by a listener (method and path only).
final class RequestLog: Sendable {
    let lines = Mutex<[String]>([])
}
