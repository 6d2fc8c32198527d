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

/// Builds the route table's lines for one issuer: each line gets its kind's `ErrorRenderer`. A
/// page or authorization route's handler is made again for each request with the renderer bound
/// to that request (`ErrorRenderer.answering`), so its pages, and the pages of its errors, are in
/// the request's language; making it is only capturing a few values. Each handler is counted and
/// timed under its pattern (`ServerMetrics`) when metrics are given.
struct RouteTableBuilder {
    let issuer: String
    /// The brand of every page.
    let assets: BrandAssets
    let metrics: ServerMetrics?
    /// The listener's name in the metrics: `public` or `admin`.
    let listener: String
    private(set) var routes: [Route] = []

    init(issuer: String, assets: BrandAssets, metrics: ServerMetrics? = nil, listener: String = "public") {
        self.issuer = issuer
        self.assets = assets
        self.metrics = metrics
        self.listener = listener
    }

    /// Adds a route; `handler` receives the renderer for `kind` on `path`.
    mutating func add(_ methods: [HTTPMethod], _ path: String, _ kind: RouteKind,
                      _ handler: @escaping @Sendable (ErrorRenderer) -> HTTPHandler) {
        let renderer = ErrorRenderer(kind: kind, route: path, issuer: issuer, assets: assets)
        var made: HTTPHandler
        switch (kind, handler(renderer)) {
        case (.api, let plain), (.admin, let plain):
            made = plain
        case (_, .sync(let first)):
            made = .sync { request in
                guard case .sync(let bound) = handler(renderer.answering(request)) else { return first(request) }
                return bound(request)
            }
        case (_, .async(let first)):
            made = .async { request in
                guard case .async(let bound) = handler(renderer.answering(request)) else { return await first(request) }
                return await bound(request)
            }
        case (_, .deferring(let inline, let suspended)):
            made = .deferring(inline: { request in
                guard case .deferring(let bound, _) = handler(renderer.answering(request)) else { return inline(request) }
                return bound(request)
            }, suspended: { request in
                guard case .deferring(_, let bound) = handler(renderer.answering(request)) else { return await suspended(request) }
                return await bound(request)
            })
        }
        if let metrics { made = metrics.instrument(made, route: path, listener: listener) }
        routes.append(Route(methods: methods, path: path, kind: kind, handler: made))
    }
}
