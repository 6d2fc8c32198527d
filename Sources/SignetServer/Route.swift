import SignetHTTP

/// One line of the route table: the methods and path a handler serves, and the route's kind,
/// which decides how its errors are rendered. The handler is made with an `ErrorRenderer` for
/// that kind, so a handler cannot render an error in another route's way.
struct Route: Sendable {
    /// The methods served (each gets the same handler).
    let methods: [HTTPMethod]
    /// The path pattern (`Routes`), `{name}` for a path parameter.
    let path: String
    /// JSON API, authorization step or page.
    let kind: RouteKind
    /// The handler.
    let handler: HTTPHandler
}

/// Builds the route table's lines for one issuer: each line gets its kind's `ErrorRenderer`.
struct RouteTableBuilder {
    let issuer: String
    private(set) var routes: [Route] = []

    init(issuer: String) { self.issuer = issuer }

    /// Adds a route; `handler` receives the renderer for `kind` on `path`.
    mutating func add(_ methods: [HTTPMethod], _ path: String, _ kind: RouteKind,
                      _ handler: (ErrorRenderer) -> HTTPHandler) {
        routes.append(Route(methods: methods, path: path, kind: kind,
                            handler: handler(ErrorRenderer(kind: kind, route: path, issuer: issuer))))
    }
}
