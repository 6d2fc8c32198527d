import SignetHTTP

/// Form-style parameters of a URL's query or fragment, parsed strictly (`+` is a space, `%XX` must
/// be valid and decode to UTF-8), in order, repeats kept: for reading `code`, `state` and `iss`
/// off a redirect target.
public struct URLQuery: Sendable, CustomStringConvertible {
    /// The parameters in order.
    public let pairs: [(name: String, value: String)]

    /// Parameters from already-decoded pairs.
    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Parses a raw query string without its `?` (`a=1&b=2`).
    public init(parsing query: some StringProtocol) throws {
        do {
            pairs = try FormFields.parse(Array(query.utf8)).pairs
        } catch {
            throw TestingError("malformed query \"\(query)\": \(error)")
        }
    }

    /// The query of a URL string (between `?` and `#`); no query gives no parameters.
    public init(queryOf url: String) throws {
        guard let question = url.firstIndex(of: "?") else {
            self.init([])
            return
        }
        let rest = url[url.index(after: question)...]
        try self.init(parsing: rest.prefix { $0 != "#" })
    }

    /// The fragment of a URL string (after `#`), as parameters (implicit and hybrid flows).
    public init(fragmentOf url: String) throws {
        guard let hash = url.firstIndex(of: "#") else {
            self.init([])
            return
        }
        try self.init(parsing: url[url.index(after: hash)...])
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// The names, in order, repeats kept.
    public var names: [String] { pairs.map(\.name) }

    /// Whether `name` is present.
    public func contains(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// The value of a parameter that must appear exactly once.
    public func single(_ name: String) throws -> String {
        let found = values(name)
        guard found.count == 1, let value = found.first else {
            throw TestingError("expected exactly one \"\(name)\" parameter, found \(found.count) (names: \(names))")
        }
        return value
    }

    /// Strict `application/x-www-form-urlencoded` encoding of pairs (everything outside RFC 3986
    /// unreserved characters is `%XX`-encoded), for building authorization URLs.
    public static func encode(_ pairs: [(String, String)]) -> String {
        FormEncoding.encode(pairs)
    }

    /// `name=value&…`, re-encoded.
    public var description: String { FormEncoding.encode(pairs.map { ($0.name, $0.value) }) }
}
