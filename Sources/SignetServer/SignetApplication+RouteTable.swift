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
        let secondFactor = SecondFactorRoutes(application: self, interactive: interactive)
        let assets = brandAssets
        var table = RouteTableBuilder(issuer: issuer, assets: assets)

        // Metadata and health: public JSON.
        table.add([.GET], Routes.openIDConfiguration, .api(.none)) { _ in .sync { _ in Self.publicJSON(discovery, maxAge: 3600) } }
        table.add([.GET], Routes.oauthAuthorizationServer, .api(.none)) { _ in .sync { _ in Self.publicJSON(discovery, maxAge: 3600) } }
        // Short max-age: rotation pre-publishes keys for much longer than this.
        table.add([.GET], Routes.jwks, .api(.none)) { _ in
            .sync { _ in Self.publicJSON(keyRing.jwksDocument, maxAge: 300, type: "application/jwk-set+json") }
        }
        table.add([.GET], Routes.health, .api(.none)) { _ in .sync { _ in Self.healthResponse() } }
        // The pages' stylesheet and logo: same-origin, named by a hash of their content.
        table.add([.GET], assets.stylesheetPath, .api(.none)) { _ in .sync { _ in assets.stylesheetResponse() } }
        if let logo = assets.logo {
            table.add([.GET], logo.path, .api(.none)) { _ in .sync { _ in assets.logoResponse(logo) } }
        }

        // JSON APIs of clients and resource servers.
        table.add([.POST], Routes.token, .api(.client)) { self.tokenHandler($0) }
        table.add([.POST], Routes.revoke, .api(.client)) { self.revocationHandler($0) }
        table.add([.POST], Routes.introspect, .api(.client)) { self.introspectionHandler($0) }
        table.add([.POST], Routes.nativeNonce, .api(.client)) { self.nativeNonceHandler($0) }
        table.add([.GET, .POST], Routes.userinfo, .api(.bearer)) { self.userinfoHandler($0) }
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

        // The second-factor step and its setup (SecondFactorRoutes).
        table.add([.POST], Routes.secondFactor, .authorization) { errors in .sync { secondFactor.codeSubmit($0, errors) } }
        table.add([.POST], Routes.secondFactorSetup, .authorization) { errors in .sync { secondFactor.setupSubmit($0, errors) } }
        table.add([.POST], Routes.signInContinue, .authorization) { errors in .sync { secondFactor.continueSubmit($0, errors) } }
        table.add([.GET], Routes.secondFactor, .page) { errors in .sync { secondFactor.codePage($0, errors) } }
        table.add([.GET], Routes.secondFactorSetup, .page) { errors in .sync { secondFactor.setupPage($0, errors) } }
        table.add([.GET], Routes.accountTOTP, .page) { errors in .sync { secondFactor.accountPage($0, errors) } }
        table.add([.POST], Routes.accountTOTP, .page) { errors in
            // Argon2id (the re-authentication): on a blocking-work thread.
            .async { request in
                do { return try await BlockingWork.run { secondFactor.accountSubmit(request, errors) } } catch {
                    return errors.internalError("account totp", error)
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

    /// The router for the route table; unknown paths and methods are JSON errors.
    public func makeRouter() -> Router {
        let router = Router()
        for route in routeTable() {
            for method in route.methods { router.add(method, route.path, route.handler) }
        }
        router.notFound = { _ in ErrorRenderer.json(ErrorResponse(error: "not_found", description: "No such endpoint."), status: 404) }
        router.methodNotAllowed = { _, allowed in
            var response = ErrorRenderer.json(ErrorResponse(error: "method_not_allowed", description: "Method not allowed."), status: 405)
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return response
        }
        return router
    }
}
