import Foundation
import SignetWire
import Synchronization

/// A callback the loopback listener accepted, with the browser still waiting for its page: the
/// app exchanges the code first, then answers with the real outcome (`respond(_:)`), so the
/// browser never says "Signed in" for a denial or a failed exchange.
///
/// A callback that is never answered gets a neutral page ("return to the app") when it is
/// released.
public final class LoopbackCallback: Sendable, CustomStringConvertible {
    /// The callback URL (`http://127.0.0.1:PORT/path?…`). Secret: it carries the code.
    public let url: URL
    private let connection: Mutex<Int32?>

    init(url: URL, connection: Int32) {
        self.url = url
        self.connection = Mutex(connection)
    }

    /// Redacted (the URL carries the code).
    public var description: String { "LoopbackCallback(redacted)" }

    /// Sends the page for `outcome` and closes the connection. Only the first call answers.
    public func respond(_ outcome: LoopbackOutcome) {
        guard let fd = connection.withLock({ value -> Int32? in
            defer { value = nil }
            return value
        }) else { return }
        let (status, title, body) = outcome.page
        LoopbackListener.respond(fd, status: status, body: LoopbackPage.render(title: title, body: body))
        LoopbackListener.closeSocket(fd)
    }

    deinit { respond(.received) }
}

/// What the browser is told after a callback.
public enum LoopbackOutcome: Sendable, Equatable {
    /// The code was exchanged and the session saved.
    case signedIn
    /// The end-session callback came back with the right `state`.
    case signedOut
    /// The authorization server refused (RFC 6749 §4.1.2.1), e.g. `access_denied`.
    case denied(code: String)
    /// The sign-in failed after the callback (the exchange, the ID token, storage); the text is
    /// shown to the user and must hold no secret (`SignInError.description` holds none).
    case failed(String)
    /// The response arrived; the app finishes on its own (no outcome known here).
    case received

    /// The outcome for a sign-in that ended with `error` (nil: success).
    public static func forSignIn(_ error: SignInError?) -> LoopbackOutcome {
        switch error {
        case nil: .signedIn
        case let error? where error.code == .authorizationError: .denied(code: error.oauthError ?? "")
        case let error?: .failed(error.description)
        }
    }

    var page: (status: String, title: String, body: String) {
        switch self {
        case .signedIn:
            ("200 OK", "Signed in", "<p>You are signed in. You can close this window and return to the app.</p>")
        case .signedOut:
            ("200 OK", "Signed out", "<p>You are signed out. You can close this window and return to the app.</p>")
        case .denied(let code):
            ("403 Forbidden", code == "access_denied" ? "Sign-in cancelled" : "Sign-in refused",
             "<p class=\"error\">The sign-in was not completed (\(LoopbackPage.escape(code))).</p>"
                + "<p class=\"muted\">Return to the app to try again.</p>")
        case .failed(let why):
            ("500 Internal Server Error", "Sign-in failed",
             "<p class=\"error\">The sign-in could not be completed: \(LoopbackPage.escape(why)).</p>"
                + "<p class=\"muted\">Return to the app to try again.</p>")
        case .received:
            ("200 OK", "Response received", "<p>The response reached the app. Return to the app to see the result.</p>")
        }
    }
}

/// The listener's pages: Signet's own page layout (`PageLayout`, shared with the server). No script.
enum LoopbackPage {
    static func render(title: String, body: String) -> String { PageLayout.render(title: title, body: body) }

    /// Escapes text for an HTML element body or a quoted attribute.
    static func escape(_ text: String) -> String { PageLayout.escape(text) }
}
