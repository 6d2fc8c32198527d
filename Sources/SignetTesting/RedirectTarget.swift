import Foundation

/// Where a redirect pointed, from the raw `Location` header: a private-use scheme such as
/// `com.example.app:/cb?code=…`, an app's loopback listener, or another site. Nothing is resolved
/// or followed.
public struct RedirectTarget: Sendable, CustomStringConvertible {
    /// The `Location` header exactly as sent.
    public let location: String

    /// Wraps a raw `Location` value.
    public init(_ location: String) {
        self.location = location
    }

    /// The scheme, lowercased (`com.example.app`, `http`), or nil for a relative reference.
    public var scheme: String? {
        guard let colon = location.firstIndex(of: ":") else { return nil }
        let candidate = location[..<colon]
        guard let first = candidate.first, first.isLetter,
              candidate.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return candidate.lowercased()
    }

    /// The target without query and fragment: compare it with the `redirect_uri` that was sent.
    public var base: String {
        String(location.prefix { $0 != "?" && $0 != "#" })
    }

    /// The target as a URL, when Foundation can parse it.
    public var url: URL? { URL(string: location) }

    /// The query parameters, parsed strictly; throws if the encoding is broken.
    public func query() throws -> URLQuery { try URLQuery(queryOf: location) }

    /// The fragment parameters, parsed strictly.
    public func fragment() throws -> URLQuery { try URLQuery(fragmentOf: location) }

    /// The first value of a query parameter, or nil (also when the query is malformed; use
    /// `query()` to see why).
    public subscript(name: String) -> String? { (try? query())?[name] }

    /// The raw location.
    public var description: String { location }
}
