import Foundation
import SignetHTTP
import SignetWire

extension SignetApplication {
    /// The route table: every method, path and handler the server serves, each with its kind
    /// (`RouteKind`: JSON API, authorization step or page), which decides how the route's
    /// errors are rendered (`ErrorRenderer`). Adding a route is one line here and one handler.
    func routeTable() -> [Route] {
        let discovery = self.discovery
        let keyRing = environment.keyRing
        let interactive = InteractiveRoutes(application: self)
        let federation = FederationRoutes(application: self, interactive: interactive)
        var table = RouteTableBuilder(issuer: issuer, metrics: metrics, listener: "public")

        // Metadata and health: public JSON.
        table.add([.GET], Routes.openIDConfiguration, .api(.none)) { _ in .sync { _ in Self.publicJSON(discovery, maxAge: 3600) } }
        table.add([.GET], Routes.oauthAuthorizationServer, .api(.none)) { _ in .sync { _ in Self.publicJSON(discovery, maxAge: 3600) } }
        // Short max-age: rotation pre-publishes keys for much longer than this.
        table.add([.GET], Routes.jwks, .api(.none)) { _ in
            .sync { _ in Self.publicJSON(keyRing.jwksDocument, maxAge: 300, type: "application/jwk-set+json") }
        }
        table.add([.GET], Routes.health, .api(.none)) { _ in .sync { _ in Self.healthResponse() } }

        // JSON APIs of clients and resource servers.
        table.add([.POST], Routes.token, .api(.client)) { tokenHandler($0) }
        table.add([.POST], Routes.revoke, .api(.client)) { revocationHandler($0) }
        table.add([.POST], Routes.introspect, .api(.client)) { introspectionHandler($0) }
        table.add([.POST], Routes.nativeNonce, .api(.client)) { nativeNonceHandler($0) }
        table.add([.GET, .POST], Routes.userinfo, .api(.bearer)) { userinfoHandler($0) }
        table.add([.POST], Routes.headlessStart, .api(.none)) { errors in .sync { federation.headlessStart($0, errors) } }
        table.add([.POST], Routes.headlessProviderStart, .api(.none)) { errors in
            .async { await federation.headlessProviderStart($0, errors) }
        }

        // The authorization flow: errors go to the verified redirect URI once there is one.
        table.add([.GET, .POST], Routes.authorize, .authorization) { errors in .sync { interactive.authorize($0, errors) } }
        table.add([.POST], Routes.signIn, .authorization) { errors in
            // Argon2id: on a blocking-work thread.
            .async { request in
                do { return try await BlockingWork.run { interactive.signInSubmit(request, errors) } } catch {
                    return errors.internalError("sign-in", error)
                }
            }
        }
        table.add([.POST], Routes.consent, .authorization) { errors in .sync { interactive.consentSubmit($0, errors) } }
        // Provider calls run in async handlers, so a slow provider never holds an HTTP thread.
        table.add([.GET, .POST], Routes.federationCallback, .authorization) { errors in .async { await federation.callback($0, errors) } }
        table.add([.POST], Routes.federationLink, .authorization) { errors in
            .async { request in
                do { return try await BlockingWork.run { federation.linkSubmit(request, errors) } } catch {
                    return errors.internalError("federation link", error)
                }
            }
        }

        // Pages.
        table.add([.GET], Routes.signIn, .page) { errors in .sync { interactive.signInPage($0, errors) } }
        table.add([.GET], Routes.consent, .page) { errors in .sync { interactive.consentPage($0, errors) } }
        table.add([.GET, .POST], Routes.endSession, .page) { errors in .sync { interactive.logout($0, errors) } }
        table.add([.GET], Routes.federationStart, .page) { errors in .async { await federation.start($0, errors) } }
        table.add([.GET], Routes.federationLaunch, .page) { errors in .async { await federation.launch($0, errors) } }
        table.add([.GET], Routes.federationLink, .page) { errors in .sync { federation.linkPage($0, errors) } }
        return table.routes
    }

    /// The router for the public route table; unknown paths and methods are JSON errors. No
    /// admin route is ever on it: every `/admin/…` path answers 404 here.
    public func makeRouter() -> Router {
        makeRouter(routeTable(), listener: "public")
    }

    /// A router for `routes`; unknown paths and methods are JSON errors, counted as `unmatched`.
    func makeRouter(_ routes: [Route], listener: String) -> Router {
        let router = Router()
        for route in routes {
            for method in route.methods { router.add(method, route.path, route.handler) }
        }
        let metrics = self.metrics
        router.notFound = { request in
            let started = DispatchTime.now()
            let response = ErrorRenderer.json(ErrorResponse(error: "not_found", description: "No such endpoint."), status: 404)
            metrics.observe(request, response, route: ServerMetrics.unmatchedRoute, listener: listener, since: started)
            return response
        }
        router.methodNotAllowed = { request, allowed in
            let started = DispatchTime.now()
            var response = ErrorRenderer.json(ErrorResponse(error: "method_not_allowed", description: "Method not allowed."), status: 405)
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            metrics.observe(request, response, route: ServerMetrics.unmatchedRoute, listener: listener, since: started)
            return response
        }
        return router
    }
}
