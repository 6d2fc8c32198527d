import Foundation
import SignetHTTP
import Synchronization

/// A cookie-keeping browser for server-rendered pages, without scripts.
///
/// It follows redirects by itself (up to `maxRedirects`) while they stay on a trusted origin — the
/// origin of every URL passed to `open`, plus any added with `trust(_:)` (a mock upstream provider,
/// say). It stops at a redirect to anything else — a private-use scheme (`com.example.app:/cb?…`),
/// an app's loopback listener on another port, a foreign site — and returns it, so the test reads
/// `code`, `state` and `iss` off the raw `Location`. A page answered with `Refresh: 0; url=…` is
/// followed the same way.
///
/// ```swift
/// let browser = FormBrowser()
/// let login = try await browser.open(server.url("/authorize", query: [...]))
/// let outcome = try await browser.submit(fields: ["username": "alice", "password": "pw"], pressing: "action")
/// let code = try outcome.requireRedirect().query().single("code")
/// ```
public final class FormBrowser: Sendable {
    private struct State {
        var trusted: Set<String> = []
        var page: TestResponse?
    }

    /// The browser's cookies (one jar for every host).
    public let cookies: CookieJar
    /// The most redirects one navigation follows before failing.
    public let maxRedirects: Int
    /// Header fields sent with every request, as a browser's settings would (`Accept-Language`).
    public let preferences: HTTPHeaders
    private let client: HTTPTestClient
    private let state = Mutex(State())

    /// Creates a browser with an empty (or given) cookie jar; `preferences` go with every request.
    public init(cookies: CookieJar = CookieJar(), maxRedirects: Int = 10, timeoutSeconds: TimeInterval = 10, preferences: HTTPHeaders = [:]) {
        self.cookies = cookies
        self.preferences = preferences
        self.maxRedirects = maxRedirects
        self.client = HTTPTestClient(cookies: cookies, timeoutSeconds: timeoutSeconds)
    }

    /// Follows redirects to `origin` (scheme, host and port of the URL) from now on.
    public func trust(_ origin: URL) {
        state.withLock { _ = $0.trusted.insert(Self.origin(of: origin)) }
    }

    /// The last page the browser landed on (not a redirect it stopped at).
    public var page: TestResponse? { state.withLock { $0.page } }

    /// The forms on the last page.
    public var forms: [HTMLForm] {
        guard let page else { return [] }
        return HTMLForm.forms(in: page.text, pageURL: page.url)
    }

    /// Opens `url` with GET (trusting its origin) and follows redirects.
    @discardableResult
    public func open(_ url: URL, headers: HTTPHeaders = [:]) async throws -> BrowserOutcome {
        trust(url)
        return try await navigate(method: "GET", url: url, body: nil, headers: headers)
    }

    /// Submits the form at `index` on the last page. See `HTMLForm.submission` for how `fields`,
    /// `removing` and `pressing` shape what is sent.
    @discardableResult
    public func submit(formIndex index: Int = 0, fields: [String: String] = [:], removing: Set<String> = [],
                       pressing button: String? = nil) async throws -> BrowserOutcome {
        let forms = self.forms
        guard forms.indices.contains(index) else {
            throw TestingError("the page has \(forms.count) form(s), no form #\(index): \(page.map(\.description) ?? "no page yet")")
        }
        return try await submit(forms[index], fields: fields, removing: removing, pressing: button)
    }

    /// Submits the first form on the last page whose action path (or raw `action`) is `action`.
    @discardableResult
    public func submit(formWithAction action: String, fields: [String: String] = [:], removing: Set<String> = [],
                       pressing button: String? = nil) async throws -> BrowserOutcome {
        let forms = self.forms
        guard let form = forms.first(where: { $0.action.path == action || $0.rawAction == action || $0.action.absoluteString == action }) else {
            throw TestingError("no form with action \(action) on the page; actions: \(forms.map { $0.action.absoluteString })")
        }
        return try await submit(form, fields: fields, removing: removing, pressing: button)
    }

    /// Submits `form` as a browser would: GET puts the fields in the action's query; POST sends
    /// them form-encoded with an `Origin` header of the page.
    @discardableResult
    public func submit(_ form: HTMLForm, fields: [String: String] = [:], removing: Set<String> = [],
                       pressing button: String? = nil) async throws -> BrowserOutcome {
        let pairs = try form.submission(overrides: fields, removing: removing, pressing: button)
        let encoded = FormEncoding.encode(pairs)
        if form.method == "POST" {
            var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
            if let page { headers.set("Origin", Self.originHeader(of: page.url)) }
            return try await navigate(method: "POST", url: form.action, body: Array(encoded.utf8), headers: headers)
        }
        guard var components = URLComponents(url: form.action, resolvingAgainstBaseURL: true) else {
            throw TestingError("cannot build a GET submission to \(form.action)")
        }
        components.percentEncodedQuery = encoded.isEmpty ? nil : encoded
        components.fragment = nil
        guard let url = components.url else { throw TestingError("cannot build a GET submission to \(form.action)") }
        return try await navigate(method: "GET", url: url, body: nil, headers: [:])
    }

    private func navigate(method: String, url: URL, body: [UInt8]?, headers: HTTPHeaders) async throws -> BrowserOutcome {
        var method = method, url = url, body = body, headers = headers
        var history: [URL] = []
        for _ in 0...maxRedirects {
            history.append(url)
            var sent = headers
            for (name, value) in preferences where sent[name] == nil { sent.set(name, value) }
            let response = try await client.send(method: method, url: url, body: body, headers: sent)
            let isRedirect = (300...399).contains(response.status) && response.status != 304
            guard let location = isRedirect ? response.location : Self.immediateRefresh(response) else {
                state.withLock { $0.page = response }
                return BrowserOutcome(response: response, history: history, redirect: nil)
            }
            let target = RedirectTarget(location)
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL,
                  ["http", "https"].contains(next.scheme?.lowercased() ?? ""),
                  target.scheme == nil || ["http", "https"].contains(target.scheme ?? ""),
                  state.withLock({ $0.trusted.contains(Self.origin(of: next)) }) else {
                return BrowserOutcome(response: response, history: history, redirect: target)
            }
            // RFC 9110 §15.4: 307 and 308 repeat the method and body; the others become GET.
            if response.status != 307 && response.status != 308 {
                method = "GET"
                body = nil
                headers = [:]
            }
            url = next
        }
        throw TestingError("more than \(maxRedirects) redirects: \(history.map(\.absoluteString))")
    }

    /// The target of a page's `Refresh: 0; url=…` header, which a browser opens at once as the
    /// page's own navigation (HTML's "shared declarative refresh steps"); nil for any other page.
    static func immediateRefresh(_ response: TestResponse) -> String? {
        guard (200...299).contains(response.status), let refresh = response.header("Refresh") else { return nil }
        let parts = refresh.split(separator: ";", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, parts[0] == "0", parts[1].lowercased().hasPrefix("url=") else { return nil }
        return String(parts[1].dropFirst(4))
    }

    /// The `Origin` header a browser sends for a page (RFC 6454 §6.1: no default port).
    static func originHeader(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let defaultPort = scheme == "https" ? 443 : 80
        let port = url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? "")\(port)"
    }

    /// `scheme://host:port`, lowercased, with the default port made explicit.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
