import Foundation
import Synchronization

/// The redirect receiver for desktop and CLI apps (RFC 8252 §7.3): an HTTP listener on
/// `127.0.0.1` and an ephemeral port that waits for exactly one valid callback.
///
/// It answers the browser with a small "you can close this window" page, refuses requests that are
/// not the expected callback (another path: 404; the right path but not this sign-in's `state`:
/// 400) and keeps waiting for the real one; after accepting it, it closes its socket, so a second
/// callback finds nobody listening. Built on plain POSIX sockets: SignetKit imports no server module.
///
/// ```swift
/// let listener = try LoopbackListener()
/// let session = try client.beginSignIn(redirectURI: listener.redirectURI)
/// ExternalBrowser().open(session.authorizationURL)
/// let url = try await listener.waitForCallback(timeout: 300) { session.isAddressed($0) }
/// let state = try await client.completeSignIn(callback: url)
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

    /// Waits for the one callback `accepting` approves, answers it, closes the listener, and
    /// returns its URL (`http://127.0.0.1:PORT/path?…`).
    ///
    /// - Throws: `.timedOut` after `timeout` seconds, `.cancelled` when the task is cancelled or
    ///   `close()` is called.
    public func waitForCallback(timeout: TimeInterval, accepting: @escaping @Sendable (URL) -> Bool) async throws(SignInError) -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        let result: Result<URL, SignInError> = await withTaskCancellationHandler {
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

    /// Stops listening. Safe to call more than once.
    public func close() {
        socket.withLock { fd in
            if let open = fd { Self.closeSocket(open) }
            fd = nil
        }
    }

    deinit { close() }

    /// The accept loop, on its own thread: one connection at a time, each with a read time limit.
    private func serve(until deadline: Date, accepting: @Sendable (URL) -> Bool) -> Result<URL, SignInError> {
        while true {
            guard let fd = socket.withLock({ $0 }) else { return .failure(.cancelled) }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                close()
                return .failure(.timedOut)
            }
            guard let connection = Self.acceptConnection(fd, waitMilliseconds: Int32(min(remaining, 0.25) * 1000)) else { continue }
            defer { Self.closeSocket(connection) }
            guard let target = Self.readRequestTarget(connection) else {
                Self.respond(connection, status: "400 Bad Request", body: Self.page("Bad request", "This address only receives sign-in responses."))
                continue
            }
            let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard pathPart == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
                Self.respond(connection, status: "404 Not Found", body: Self.page("Not found", "This address only receives sign-in responses."))
                continue
            }
            guard accepting(url) else {
                // RFC 6749 §10.12: a response without this sign-in's state is refused; keep waiting for the real one.
                Self.respond(connection, status: "400 Bad Request",
                             body: Self.page("Unexpected response", "This sign-in response was not expected. Return to the app and try again."))
                continue
            }
            Self.respond(connection, status: "200 OK",
                         body: Self.page("Signed in", "You can close this window and return to the app."))
            close()
            return .success(url)
        }
    }

    static func page(_ title: String, _ message: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">\
        <title>\(title)</title></head><body style="font-family:system-ui,sans-serif;max-width:32em;margin:4em auto;padding:0 1em">\
        <h1>\(title)</h1><p>\(message)</p></body></html>
        """
    }
}
