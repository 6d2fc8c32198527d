import Foundation
import Synchronization

/// The redirect receiver for desktop and CLI apps (RFC 8252 §7.3): an HTTP listener on
/// `127.0.0.1` and an ephemeral port that waits for exactly one valid callback.
///
/// It refuses requests that are not the expected callback (another path: 404; the right path but
/// not this sign-in's `state`: 400) and keeps waiting for the real one; after accepting it, it
/// closes its socket, so a second callback finds nobody listening. The browser's page for the
/// accepted callback waits for the real outcome (`receiveCallback` and `LoopbackCallback.respond`):
/// "Signed in" only after the code was exchanged, a denial or a failure otherwise, in the look
/// of Signet's pages. Built on plain POSIX sockets: SignetKit imports no server module.
///
/// ```swift
/// let listener = try LoopbackListener()
/// let session = try client.beginSignIn(redirectURI: listener.redirectURI)
/// ExternalBrowser().open(session.authorizationURL)
/// let callback = try await listener.receiveCallback(timeout: 300) { session.isAddressed($0) }
/// do {
///     let state = try await client.completeSignIn(callback: callback.url)
///     callback.respond(.signedIn)
/// } catch {
///     callback.respond(.forSignIn(error))
/// }
/// ```
public final class LoopbackListener: Sendable {
    /// The bound port.
    public let port: Int
    /// The callback path, e.g. `/callback`.
    public let path: String
    let socket: Mutex<Int32?>

    /// The redirect URI to send: `http://127.0.0.1:PORT/path`.
    public var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

    /// Binds `127.0.0.1:port` (0 = an ephemeral port chosen by the system) and listens.
    public init(port: Int = 0, path: String = "/callback") throws(SignInError) {
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#") else {
            throw .invalidRedirectURI("the listener path must start with / and carry no query")
        }
        guard (0...65535).contains(port) else { throw .invalidRedirectURI("port \(port) is out of range") }
        let (fd, bound) = try Self.bind(port: port)
        self.port = bound
        self.path = path
        self.socket = Mutex(fd)
    }

    /// Waits for the one callback `accepting` approves, closes the listener, and returns the
    /// callback with the browser still waiting: answer it with the real outcome
    /// (`LoopbackCallback.respond`) once the code is exchanged.
    ///
    /// - Throws: `.timedOut` after `timeout` seconds, `.cancelled` when the task is cancelled or
    ///   `close()` is called.
    public func receiveCallback(timeout: TimeInterval, accepting: @escaping @Sendable (URL) -> Bool) async throws(SignInError) -> LoopbackCallback {
        let deadline = Date().addingTimeInterval(timeout)
        let result: Result<LoopbackCallback, SignInError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(returning: self.serve(until: deadline, accepting: accepting))
                }
                thread.name = "signet-loopback"
                thread.start()
            }
        } onCancel: {
            self.close()
        }
        return try result.get()
    }

    /// Waits for the one callback `accepting` approves and returns its URL. The browser is told
    /// only what is known here: a denial (the callback carries `error`), else that the response
    /// reached the app. Apps that exchange the code should use `receiveCallback` and show the
    /// real outcome (`SignInClient.signIn(with:)` does).
    public func waitForCallback(timeout: TimeInterval, accepting: @escaping @Sendable (URL) -> Bool) async throws(SignInError) -> URL {
        let callback = try await receiveCallback(timeout: timeout, accepting: accepting)
        let error = URLComponents(url: callback.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "error" }?.value
        callback.respond(error.map { .denied(code: $0) } ?? .received)
        return callback.url
    }

    /// Stops listening. Safe to call more than once.
    public func close() {
        socket.withLock { fd in
            if let open = fd { Self.closeSocket(open) }
            fd = nil
        }
    }

    deinit { close() }

    /// The accept loop, on its own thread: one connection at a time, each with a read time limit.
    /// The accepted callback's connection stays open for its outcome page.
    private func serve(until deadline: Date, accepting: @Sendable (URL) -> Bool) -> Result<LoopbackCallback, SignInError> {
        while true {
            guard let fd = socket.withLock({ $0 }) else { return .failure(.cancelled) }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                close()
                return .failure(.timedOut)
            }
            guard let connection = Self.acceptConnection(fd, waitMilliseconds: Int32(min(remaining, 0.25) * 1000)) else { continue }
            guard let target = Self.readRequestTarget(connection) else {
                Self.refuse(connection, status: "400 Bad Request", "Bad request", "This address only receives sign-in responses.")
                continue
            }
            let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard pathPart == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
                Self.refuse(connection, status: "404 Not Found", "Not found", "This address only receives sign-in responses.")
                continue
            }
            guard accepting(url) else {
                // RFC 6749 §10.12: a response without this sign-in's state is refused; keep waiting for the real one.
                Self.refuse(connection, status: "400 Bad Request", "Unexpected response",
                            "This sign-in response was not expected. Return to the app and try again.")
                continue
            }
            close()
            return .success(LoopbackCallback(url: url, connection: connection))
        }
    }

    /// Answers a request that is not the callback and closes its connection.
    static func refuse(_ connection: Int32, status: String, _ title: String, _ message: String) {
        respond(connection, status: status,
                body: LoopbackPage.render(title: title, body: "<p class=\"error\">\(LoopbackPage.escape(message))</p>"))
        closeSocket(connection)
    }
}
