import SignetHTTP

extension SignetApplication {
    /// Federated sign-in: `/federation/start`, the headless launch (`/federation/launch`), the provider callback (GET and Apple's form_post
    /// POST), linking after proof (`/federation/link`) and the headless JSON API. Provider calls run in async handlers, so a slow provider
    /// never holds an HTTP thread.
    func installFederationRoutes(_ router: Router, interactive: InteractiveRoutes) {
        let routes = FederationRoutes(application: self, interactive: interactive)
        router.get(Routes.federationStart, .async { await routes.start($0) })
        router.get(Routes.federationLaunch, .async { await routes.launch($0) })
        router.get(Routes.federationCallback, .async { await routes.callback($0) })
        router.post(Routes.federationCallback, .async { await routes.callback($0) })
        router.get(Routes.federationLink, .sync { routes.linkPage($0) })
        router.post(Routes.federationLink, .async { request in
            do { return try await BlockingWork.run { routes.linkSubmit(request) } } catch {
                return InteractiveRoutes.internalError("federation link", error)
            }
        })
        router.post(Routes.headlessStart, .sync { routes.headlessStart($0) })
        router.post(Routes.headlessProviderStart, .async { await routes.headlessProviderStart($0) })
    }
}
