import SignetHTTP

extension SignetApplication {
    /// `/authorize`, `/signin`, `/consent` and `/logout` (GET and POST each).
    func installInteractiveRoutes(_ router: Router) {
        let routes = InteractiveRoutes(application: self)
        router.get(Routes.authorize, .sync { routes.authorize($0) })
        router.post(Routes.authorize, .sync { routes.authorize($0) })
        router.get(Routes.signIn, .sync { routes.signInPage($0) })
        router.post(Routes.signIn, .async { request in
            do { return try await BlockingWork.run { routes.signInSubmit(request) } } catch {
                return InteractiveRoutes.internalError("sign-in", error)
            }
        })
        router.get(Routes.consent, .sync { routes.consentPage($0) })
        router.post(Routes.consent, .sync { routes.consentSubmit($0) })
        router.get(Routes.endSession, .sync { routes.logout($0) })
        router.post(Routes.endSession, .sync { routes.logout($0) })
        installFederationRoutes(router, interactive: routes)
    }
}
