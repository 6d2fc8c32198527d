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
/// second listener whose access log counts `/token` requests: it forwards `POST /token` to the
/// server over HTTP, and can hold a request there (`tokenGate`) so a test can act while a
/// refresh is in flight. Every other path is the same application.
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
    /// Holds `/token` requests at the counting listener while closed.
    let tokenGate = TokenGate()
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
            grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none",
            allowedResources: Self.resources, createdAt: now, updatedAt: now))
        userID = try server.environment.makeUserService().create(email: Self.email, name: "Alice", password: Self.password).id
        let port = try FreePort.pick()
        countedBase = "http://127.0.0.1:\(port)"
        var configuration = HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(port)")], threadCount: 2)
        let log = requests
        configuration.accessLog = { entry in log.lines.withLock { $0.append("\(entry.method) \(entry.path)") } }
        let router = server.application.makeRouter()
        let upstream = server.url(Routes.token)
        let gate = tokenGate
        router.post(Routes.token, .async { request in
            await gate.pass()
            var headers = ["Content-Type": request.headers["Content-Type"] ?? "application/x-www-form-urlencoded"]
            if let authorization = request.headers["Authorization"] { headers["Authorization"] = authorization }
            guard let answer = try? await OutboundHTTP().send(method: "POST", url: upstream, body: request.body, headers: headers) else {
                return .text("upstream unreachable\n", status: 502)
            }
            var response = HTTPResponse(status: answer.status, body: answer.body)
            for (name, value) in answer.headers where !["content-length", "connection", "date", "transfer-encoding"].contains(name) {
                response.headers.set(name, value)
            }
            return response
        })
        counted = HTTPServer(configuration: configuration, router: router)
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

    /// The APIs the test client may name (RFC 8707), in its registration at the server.
    static let resources = ["https://api.example", "https://other.example"]

    /// A client from real discovery whose token endpoint is the counting listener.
    func client(storage: any TokenStorage = InMemoryTokenStorage(), resources: [String] = []) async throws -> SignInClient {
        let discovered = try await ProviderConfiguration.discover(issuer: server.issuer, http: OutboundHTTP())
        var metadata = discovered.metadata
        metadata.tokenEndpoint = URL(string: countedBase + Routes.token)
        let provider = ProviderConfiguration(metadata: metadata, issuerParameterSupported: discovered.issuerParameterSupported)
        var configuration = self.configuration
        configuration.resources = resources
        return try SignInClient(configuration: configuration, provider: provider, storage: storage, clock: clock)
    }

    /// The user signs in with a cookie-keeping browser; returns the redirect the server sent
    /// (to the app's loopback address), without delivering it.
    func authorize(_ request: SignInRequest, browser: FormBrowser = FormBrowser()) async throws -> RedirectTarget {
        try await authorize(request.authorizationURL, browser: browser)
    }

    /// The same, from the authorization URL.
    func authorize(_ url: URL, browser: FormBrowser = FormBrowser()) async throws -> RedirectTarget {
        let page = try await browser.open(url)
        guard page.redirect == nil else { return try page.requireRedirect() }   // prompt=none and friends
        let outcome = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": Self.email, "password": Self.password])
        return try outcome.requireRedirect()
    }

    /// The whole desktop sign-in (`SignInClient.signIn(with:)`), the redirect delivered to the
    /// loopback listener over HTTP; the browser's page must say "Signed in" after the exchange.
    /// `organization` is passed to `signIn(with:organization:)`.
    func signIn(_ client: SignInClient, organization: String? = nil) async throws -> AuthState {
        let listener = try LoopbackListener()
        let (urls, opened) = AsyncStream<URL>.makeStream()
        async let session = client.signIn(with: listener, timeout: 30, organization: organization) { url in
            opened.yield(url)
            opened.finish()
        }
        var iterator = urls.makeAsyncIterator()
        let authorizationURL = try #require(await iterator.next())
        let redirect = try await authorize(authorizationURL)
        let delivered = try await HTTPTestClient().get(try #require(redirect.url))
        #expect(delivered.status == 200)
        #expect(delivered.text.contains("<h1>Signed in</h1>"))
        return try await session
    }
}

/// Holds one request: after `close()`, the next request reports its arrival on `arrivals` and
/// waits until `open()`; later requests pass.
final class TokenGate: Sendable {
    private struct State {
        var closed = false
        var held = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let stream = AsyncStream<Void>.makeStream()

    /// One element per request that arrived at the closed gate.
    var arrivals: AsyncStream<Void> { stream.stream }

    func close() { state.withLock { $0.closed = true } }

    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.closed = false
            state.held = 0
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns at once while open; else waits for `open()`.
    func pass() async {
        await withCheckedContinuation { continuation in
            let held = state.withLock { state -> Bool in
                guard state.closed, state.held == 0 else { return false }
                state.held += 1
                state.waiting.append(continuation)
                return true
            }
            if held { stream.continuation.yield() } else { continuation.resume() }
        }
    }
}

/// Request lines seen by a listener (method and path only).
final class RequestLog: Sendable {
    let lines = Mutex<[String]>([])
}
