import Synchronization

/// Maps a method and path to a handler.
///
/// Patterns are exact paths (`/token`) or contain whole-segment parameters
/// (`/oauth2/callback/{connection}`). There is no trailing-slash folding: `/token/` does not match
/// `/token`. Static paths are found with one dictionary lookup (on the percent-decoded path);
/// patterns are tried in the order they were added, segment by segment on the raw path, each
/// segment percent-decoded (so `%2F` stays inside a parameter).
///
/// An unknown path gets `notFound`; a known path with another method gets `methodNotAllowed`
/// (the server adds the `Allow` header). `HEAD` is answered by the `GET` handler with the body
/// dropped. Routes are read when the server starts: add them all before `HTTPServer.start()`.
public final class Router: Sendable {
    private let state = Mutex(RouteTable())

    /// An empty router with plain-text 404 and 405 responses.
    public init() {}

    /// Registers `handler` for `method` on `pattern`, replacing an earlier registration of the pair.
    public func add(_ method: HTTPMethod, _ pattern: String, _ handler: HTTPHandler) {
        state.withLock { $0.add(method, pattern, handler) }
    }

    /// Registers a `GET` (and so `HEAD`) handler.
    public func get(_ pattern: String, _ handler: HTTPHandler) { add(.GET, pattern, handler) }

    /// Registers a `POST` handler.
    public func post(_ pattern: String, _ handler: HTTPHandler) { add(.POST, pattern, handler) }

    /// Builds the response for an unknown path (default: 404 text).
    public var notFound: @Sendable (HTTPRequest) -> HTTPResponse {
        get { state.withLock { $0.notFound } }
        set { state.withLock { $0.notFound = newValue } }
    }

    /// Builds the response for a known path with an unsupported method (default: 405 text). The
    /// second argument lists the allowed methods; the server sets `Allow` from it afterwards.
    public var methodNotAllowed: @Sendable (HTTPRequest, [HTTPMethod]) -> HTTPResponse {
        get { state.withLock { $0.methodNotAllowed } }
        set { state.withLock { $0.methodNotAllowed = newValue } }
    }

    /// An immutable copy of the current routes, as the server uses them.
    func snapshot() -> RouteTable { state.withLock { $0 } }

    /// Routes `request` and runs a sync handler (or returns nil for an async one); for tests and tools.
    public func respondSynchronously(to request: HTTPRequest) -> HTTPResponse? {
        var request = request
        switch snapshot().resolve(&request) {
        case .handler(.sync(let handler)): return handler(request)
        case .handler(.deferring(let inline, _)): return inline(request)
        case .handler(.async): return nil
        case .response(let response): return response
        }
    }
}

/// The routes and error hooks, immutable once the server has started.
struct RouteTable: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    struct PatternRoute: Sendable {
        let segments: [Segment]
        var methods: [(HTTPMethod, HTTPHandler)]
    }

    enum Resolution {
        case handler(HTTPHandler)
        case response(HTTPResponse)
    }

    var staticRoutes: [String: [(HTTPMethod, HTTPHandler)]] = [:]
    var patternRoutes: [PatternRoute] = []
    var notFound: @Sendable (HTTPRequest) -> HTTPResponse = { _ in .text("Not Found\n", status: 404) }
    var methodNotAllowed: @Sendable (HTTPRequest, [HTTPMethod]) -> HTTPResponse = { _, _ in
        .text("Method Not Allowed\n", status: 405)
    }

    mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: HTTPHandler) {
        let segments = RouteTable.segments(of: pattern)
        if !segments.contains(where: { if case .parameter = $0 { true } else { false } }) {
            RouteTable.put(method, handler, into: &staticRoutes[pattern, default: []])
        } else if let index = patternRoutes.firstIndex(where: { $0.segments == segments }) {
            RouteTable.put(method, handler, into: &patternRoutes[index].methods)
        } else {
            patternRoutes.append(PatternRoute(segments: segments, methods: [(method, handler)]))
        }
    }

    private static func put(_ method: HTTPMethod, _ handler: HTTPHandler, into methods: inout [(HTTPMethod, HTTPHandler)]) {
        if let index = methods.firstIndex(where: { $0.0 == method }) { methods[index].1 = handler } else { methods.append((method, handler)) }
    }

    private static func segments(of pattern: String) -> [Segment] {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { part in
            if part.count > 2, part.hasPrefix("{"), part.hasSuffix("}") { .parameter(String(part.dropFirst().dropLast())) } else { .literal(String(part)) }
        }
    }

    /// Finds the handler for `request`, filling `pathParameters`, or the error response to send.
    func resolve(_ request: inout HTTPRequest) -> Resolution {
        if let methods = staticRoutes[request.path] {
            return pick(methods, for: &request)
        }
        guard !patternRoutes.isEmpty else { return .response(notFound(request)) }
        let rawSegments = request.rawPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var decoded: [String?] = []
        routes: for route in patternRoutes where route.segments.count == rawSegments.count {
            if decoded.isEmpty { decoded = rawSegments.map { try? PercentDecoding.decode($0, plusIsSpace: false) } }
            var parameters: [String: String] = [:]
            for (segment, value) in zip(route.segments, decoded) {
                guard let value else { continue routes }
                switch segment {
                case .literal(let literal): if literal != value { continue routes }
                case .parameter(let name):
                    if value.isEmpty { continue routes }
                    parameters[name] = value
                }
            }
            request.pathParameters = parameters
            return pick(route.methods, for: &request)
        }
        return .response(notFound(request))
    }

    private func pick(_ methods: [(HTTPMethod, HTTPHandler)], for request: inout HTTPRequest) -> Resolution {
        for (method, handler) in methods where method == request.method { return .handler(handler) }
        if request.method == .HEAD {
            for (method, handler) in methods where method == .GET { return .handler(handler) }
        }
        var allowed = methods.map(\.0)
        if allowed.contains(.GET), !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        var response = methodNotAllowed(request, allowed)
        response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
        return .response(response)
    }
}
