/// The parameters of one request (query or form), in order, as received.
///
/// This is the boundary type between HTTP and OAuth logic: endpoints read each parameter at most
/// once through `single`, which refuses a repeated parameter (RFC 6749 §3.1: "Request and
/// response parameters MUST NOT be included more than once").
public struct RequestParameters: Sendable {
    /// The name-value pairs, in order.
    public let pairs: [(name: String, value: String)]

    /// Creates the parameters from pairs.
    public init(_ pairs: [(name: String, value: String)]) { self.pairs = pairs }

    /// The value of a parameter given at most once; an empty value counts as absent
    /// (RFC 6749 §3.1). A repeated parameter is `invalid_request`.
    public func single(_ name: String) throws(OAuthError) -> String? {
        var found: String?
        for pair in pairs where pair.name == name {
            guard found == nil else { throw OAuthError.invalidRequest("The \(name) parameter is repeated.") }
            found = pair.value
        }
        return found?.isEmpty == true ? nil : found
    }

    /// Like `single`, but the parameter is required.
    public func required(_ name: String) throws(OAuthError) -> String {
        guard let value = try single(name) else { throw OAuthError.invalidRequest("The \(name) parameter is missing.") }
        return value
    }

    /// Every non-empty value of a parameter that may be repeated (RFC 8707 §2: `resource`), in order.
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name && !$0.value.isEmpty }.map(\.value)
    }

    /// True when the parameter appears at all.
    public func contains(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// Every name that appears more than once, in the order of its second appearance.
    public var repeatedNames: [String] { RequestParameters.repeated(in: pairs.lazy.map(\.name)) }

    /// The elements that occur more than once, each once, in the order of their second
    /// occurrence. One pass with two sets: the input is attacker-sized (a 1 MB body holds
    /// 100,000 names), so the cost must grow linearly with it.
    static func repeated<Element: Hashable>(in elements: some Sequence<Element>) -> [Element] {
        var seen = Set<Element>(), reported = Set<Element>(), repeated: [Element] = []
        for element in elements where !seen.insert(element).inserted && reported.insert(element).inserted {
            repeated.append(element)
        }
        return repeated
    }
}
