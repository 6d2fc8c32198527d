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

/// Builds the route table's lines for one issuer: each line gets its kind's `ErrorRenderer`,
/// and its handler is counted and timed under its pattern (`ServerMetrics`) when metrics are given.
struct RouteTableBuilder {
    let issuer: String
    let metrics: ServerMetrics?
    /// The listener's name in the metrics: `public` or `admin`.
    let listener: String
    private(set) var routes: [Route] = []

    init(issuer: String, metrics: ServerMetrics? = nil, listener: String = "public") {
        self.issuer = issuer
        self.metrics = metrics
        self.listener = listener
    }

    /// Adds a route; `handler` receives the renderer for `kind` on `path`.
    mutating func add(_ methods: [HTTPMethod], _ path: String, _ kind: RouteKind,
                      _ handler: (ErrorRenderer) -> HTTPHandler) {
        var made = handler(ErrorRenderer(kind: kind, route: path, issuer: issuer))
        if let metrics { made = metrics.instrument(made, route: path, listener: listener) }
        routes.append(Route(methods: methods, path: path, kind: kind, handler: made))
    }
}
