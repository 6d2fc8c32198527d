import Foundation
import Synchronization

/// A browser-like cookie store: keeps cookies per host, honours `Path`, `Domain`, `Max-Age`
/// (0 deletes), `Expires`, and `Secure` (sent only over https, or to a loopback host as current
/// browsers do, so http://127.0.0.1 test servers behave like production). Thread-safe.
public final class CookieJar: Sendable {
    private let cookies = Mutex<[TestCookie]>([])
    private let now: @Sendable () -> Date

    /// Creates an empty jar. `now` decides expiry; pass `{ server.clock.now }` to follow a
    /// server's manual clock.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    /// Stores every `Set-Cookie` of a response.
    public func store(_ response: TestResponse) {
        for header in response.setCookies { store(setCookie: header, from: response.url) }
    }

    /// Stores one `Set-Cookie` value received from `url`; a cookie already expired removes the
    /// stored cookie with the same name, domain and path.
    public func store(setCookie header: String, from url: URL) {
        guard let cookie = TestCookie(setCookie: header, from: url, now: now()) else { return }
        set(cookie)
    }

    /// Adds or replaces a cookie (same name, domain and path); an expired one is removed instead.
    public func set(_ cookie: TestCookie) {
        let current = now()
        cookies.withLock { list in
            list.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
            if let expires = cookie.expires, expires <= current { return }
            list.append(cookie)
        }
    }

    /// The cookies a request to `url` carries, longer paths first (RFC 6265 §5.4).
    public func cookies(for url: URL) -> [TestCookie] {
        let current = now()
        return cookies.withLock { list in
            list.filter { $0.matches(url, now: current) }
        }.sorted { $0.path.count > $1.path.count }
    }

    /// The `Cookie` header for a request to `url`, or nil when no cookie applies.
    public func headerValue(for url: URL) -> String? {
        let matching = cookies(for: url)
        return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The first unexpired cookie named `name`, for any host.
    public subscript(name: String) -> TestCookie? {
        let current = now()
        return cookies.withLock { $0.first { $0.name == name && ($0.expires.map { $0 > current } ?? true) } }
    }

    /// Every unexpired cookie.
    public var all: [TestCookie] {
        let current = now()
        return cookies.withLock { $0.filter { $0.expires.map { $0 > current } ?? true } }
    }

    /// Removes the cookies named `name` (any host and path).
    public func remove(named name: String) {
        cookies.withLock { $0.removeAll { $0.name == name } }
    }

    /// Empties the jar (a fresh browser profile).
    public func removeAll() {
        cookies.withLock { $0.removeAll() }
    }
}
