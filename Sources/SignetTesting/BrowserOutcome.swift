import Foundation
import SignetMacros

/// Where a `FormBrowser` navigation ended: on a page, or at a redirect it would not follow
/// because it leaves the trusted origins (an app's private-use scheme or loopback listener).
@MemberwiseInit
public struct BrowserOutcome: Sendable, CustomStringConvertible {
    /// The last response: the page, or the 3xx whose target was not followed.
    public let response: TestResponse
    /// Every URL requested during the navigation, in order.
    public let history: [URL]
    /// The redirect that was not followed, or nil when the navigation ended on a page.
    public let redirect: RedirectTarget?

    /// The last response's status.
    public var status: Int { response.status }
    /// The last URL requested.
    public var url: URL { response.url }
    /// The forms of the final page (empty when the navigation ended at a redirect).
    public var forms: [HTMLForm] { redirect == nil ? HTMLForm.forms(in: response.text, pageURL: response.url) : [] }

    /// The external redirect, or a thrown error that shows where the navigation ended instead.
    public func requireRedirect() throws -> RedirectTarget {
        guard let redirect else {
            throw TestingError("expected a redirect out of the server, but the navigation ended on a page: \(response)")
        }
        return redirect
    }

    /// The status and URL, and the redirect target if any.
    public var description: String {
        "\(status) \(url.absoluteString)" + (redirect.map { " -> \($0.location)" } ?? "")
    }
}
