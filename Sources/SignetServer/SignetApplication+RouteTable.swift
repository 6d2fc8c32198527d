import SignetCore
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
        let selfService = SelfServiceRoutes(application: self, interactive: interactive)
        let secondFactor = SecondFactorRoutes(application: self, interactive: interactive)
        let assets = brandAssets
        let account = AccountRoutes(application: self, interactive: interactive)
        let accountTokens = UserAccessTokenCheck(server: authorizationServer)
        let passkeys = PasskeyRoutes(application: self, interactive: interactive)
        let invitations = InvitationRoutes(application: self, interactive: interactive)
        var table = RouteTableBuilder(issuer: issuer, assets: assets, metrics: metrics, listener: "public")

        // The landing page: a page, not a JSON 404.
        let docsURL = environment.configuration.branding.docsURL
        table.add([.GET], Routes.landing, .page) { errors in .sync { _ in LandingPage.response(errors.page, docsURL: docsURL) } }

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
        let association = AssociationFiles(configuration: environment.configuration, clients: environment.storage.clients)
        table.add([.GET], Routes.appleAppSiteAssociation, .api(.none)) { errors in
            .sync { _ in do { return AssociationFiles.response(try association.appleDocument()) } catch { return errors.internalError("association file", error) } }
        }
        table.add([.GET], Routes.assetLinks, .api(.none)) { _ in .sync { _ in AssociationFiles.response(association.androidDocument) } }

        // JSON APIs of clients and resource servers.
        table.add([.POST], Routes.token, .api(.client)) { self.tokenHandler($0) }
        table.add([.POST], Routes.revoke, .api(.client)) { self.revocationHandler($0) }
        table.add([.POST], Routes.introspect, .api(.client)) { self.introspectionHandler($0) }
        table.add([.POST], Routes.nativeNonce, .api(.client)) { self.nativeNonceHandler($0) }
        table.add([.GET, .POST], Routes.userinfo, .api(.bearer)) { self.userinfoHandler($0) }
        // Organizations managed by their own admins (OrganizationAdminRoutes).
        addOrganizationAdminRoutes(to: &table, tokens: accountTokens)
        table.add([.POST], Routes.headlessStart, .api(.none)) { errors in .async { await federation.headlessStart($0, errors) } }
        table.add([.POST], Routes.headlessProviderStart, .api(.none)) { errors in
            .async { await federation.headlessProviderStart($0, errors) }
        }

        // Passkey ceremonies (JSON), the passkey offer, /account/passkeys and the script.
        table.add([.POST], Routes.passkeySignInOptions, .script) { errors in errors.sync { request throws(OAuthError) in try passkeys.signInOptions(request, errors) } }
        table.add([.POST], Routes.passkeySignInFinish, .script) { errors in errors.sync { request throws(OAuthError) in try passkeys.signInFinish(request, errors) } }
        table.add([.POST], Routes.passkeyRegisterOptions, .script) { errors in errors.sync { request throws(OAuthError) in try passkeys.registerOptions(request, errors) } }
        table.add([.POST], Routes.passkeyRegisterFinish, .script) { errors in errors.sync { request throws(OAuthError) in try passkeys.registerFinish(request, errors) } }
        table.add([.POST], Routes.passkeyNativeOptions, .api(.none)) { errors in errors.sync { request throws(OAuthError) in try passkeys.nativeOptions(request, errors) } }
        table.add([.POST], Routes.passkeyNativeFinish, .api(.none)) { errors in errors.sync { request throws(OAuthError) in try passkeys.nativeFinish(request, errors) } }
        // RFC 6750 §2.1: a signed-in app's access token (`passkeys:write`) in the Authorization header.
        table.add([.POST], Routes.passkeyNativeRegisterOptions, .api(.bearer)) { errors in
            errors.sync { request throws(OAuthError) in try passkeys.nativeRegisterOptions(request, errors, tokens: accountTokens) }
        }
        table.add([.POST], Routes.passkeyNativeRegisterFinish, .api(.bearer)) { errors in
            errors.sync { request throws(OAuthError) in try passkeys.nativeRegisterFinish(request, errors, tokens: accountTokens) }
        }
        table.add([.GET], Routes.passkeyOffer, .page) { errors in .sync { passkeys.offerPage($0, errors) } }
        table.add([.POST], Routes.passkeyOffer, .authorization) { errors in .sync { passkeys.offerSubmit($0, errors) } }
        table.add([.GET], Routes.accountPasskeys, .page) { errors in .sync { passkeys.accountPage($0, errors) } }
        table.add([.POST], Routes.accountPasskeysRename, .page) { errors in .sync { passkeys.accountChange($0, errors, remove: false) } }
        table.add([.POST], Routes.accountPasskeysRemove, .page) { errors in .sync { passkeys.accountChange($0, errors, remove: true) } }
        table.add([.GET], PasskeyScript.path, .api(.none)) { _ in .sync { PasskeyRoutes.script($0) } }

        // The authorization flow: errors go to the verified redirect URI once there is one.
        table.add([.GET, .POST], Routes.authorize, .authorization) { errors in .sync { interactive.authorize($0, errors) } }
        // Argon2id: on a blocking-work thread.
        table.add([.POST], Routes.signIn, .authorization) { errors in Self.blocking("sign-in", errors, interactive.signInSubmit) }
        table.add([.POST], Routes.consent, .authorization) { errors in .sync { interactive.consentSubmit($0, errors) } }
        table.add([.POST], Routes.organizationPicker, .authorization) { errors in .sync { interactive.organizationSubmit($0, errors) } }
        // Provider calls run in async handlers, so a slow provider never holds an HTTP thread.
        table.add([.GET, .POST], Routes.federationCallback, .authorization) { errors in .async { await federation.callback($0, errors) } }
        table.add([.POST], Routes.federationLink, .authorization) { errors in Self.blocking("federation link", errors, federation.linkSubmit) }

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
        table.add([.GET], Routes.organizationPicker, .page) { errors in .sync { interactive.organizationPage($0, errors) } }
        table.add([.GET, .POST], Routes.endSession, .page) { errors in .sync { interactive.logout($0, errors) } }
        table.add([.GET], Routes.federationStart, .page) { errors in .async { await federation.start($0, errors) } }
        table.add([.GET], Routes.federationLaunch, .page) { errors in .async { await federation.launch($0, errors) } }
        table.add([.GET], Routes.federationLink, .page) { errors in .sync { federation.linkPage($0, errors) } }

        // The account page (docs/accounts.md); its forms answer with pages or a 303 back.
        table.add([.GET], Routes.account, .page) { errors in .sync { account.page($0, errors) } }
        table.add([.GET], Routes.accountCallback, .page) { errors in .sync { account.callback($0, errors) } }
        table.add([.GET], Routes.accountReauth, .page) { errors in .sync { account.reauthenticate($0, errors) } }
        table.add([.POST], Routes.accountName, .page) { errors in .sync { account.saveName($0, errors) } }
        table.add([.POST], Routes.accountPassword, .page) { errors in Self.blocking("account password", errors, account.changePassword) }
        table.add([.POST], Routes.accountUnlink, .page) { errors in .sync { account.unlink($0, errors) } }
        table.add([.POST], Routes.accountSessionEnd, .page) { errors in .sync { account.endSession($0, errors) } }
        table.add([.POST], Routes.accountSessionsEndOthers, .page) { errors in .sync { account.endOtherSessions($0, errors) } }
        table.add([.POST], Routes.accountAppRevoke, .page) { errors in .sync { account.revokeApp($0, errors) } }
        table.add([.POST], Routes.accountEmail, .page) { errors in Self.blocking("account email", errors, account.changeEmail) }
        table.add([.POST], Routes.accountDelete, .page) { errors in .async { await account.deleteSubmit($0, errors) } }
        // RFC 6750 §2.1: the token in the Authorization header; a DELETE carries no form body.
        table.add([.DELETE], Routes.account, .api(.bearer)) { errors in
            .async { await account.apiDelete($0, errors, tokens: accountTokens) }
        }
        // Self-service accounts (docs/accounts.md). Posts that may continue to the client are
        // authorization steps; sign-up hashes a password (Argon2id) on a blocking-work thread.
        table.add([.GET], Routes.signUp, .page) { errors in .sync { selfService.signUpPage($0, errors) } }
        table.add([.POST], Routes.signUp, .page) { errors in Self.blocking("sign-up", errors, selfService.signUpSubmit) }
        table.add([.GET], Routes.emailCode, .page) { errors in .sync { selfService.codePage($0, errors) } }
        table.add([.GET], Routes.emailLink, .page) { errors in .sync { selfService.linkPage($0, errors) } }
        // A reset sets a password (Argon2id): on a blocking-work thread.
        table.add([.POST], Routes.emailCode, .authorization) { errors in Self.blocking("email code", errors, selfService.codeSubmit) }
        table.add([.POST], Routes.emailLink, .authorization) { errors in Self.blocking("email link", errors, selfService.linkSubmit) }
        for page in [SelfServiceRoutes.recoveryForm, SelfServiceRoutes.emailSignInForm] {
            table.add([.GET], page.path, .page) { errors in .sync { selfService.addressPage(page, $0, errors) } }
            table.add([.POST], page.path, .page) { errors in .sync { selfService.addressSubmit(page, $0, errors) } }
        }
        // An organization invitation's link (docs/organizations.md); its sign-up hashes a password.
        table.add([.GET], Routes.invitation, .page) { errors in .sync { invitations.page($0, errors) } }
        table.add([.POST], Routes.invitation, .page) { errors in Self.blocking("invitation", errors, invitations.submit) }
        table.add([.GET], Routes.invitationCallback, .page) { errors in .sync { invitations.callback($0, errors) } }
        return table.routes
    }

    /// A handler that runs `body` on a blocking-work thread (Argon2id), suspending the connection.
    static func blocking(_ context: String, _ errors: ErrorRenderer,
                         _ body: @escaping @Sendable (HTTPRequest, ErrorRenderer) -> HTTPResponse) -> HTTPHandler {
        .async { request in
            do { return try await BlockingWork.run { body(request, errors) } } catch {
                return errors.internalError(context, error)
            }
        }
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
            let response = ErrorRenderer.json(ErrorResponse(error: "not_found", errorDescription: "No such endpoint."), status: 404)
            metrics.observe(request, response, route: ServerMetrics.unmatchedRoute, listener: listener, since: started)
            return response
        }
        router.methodNotAllowed = { request, allowed in
            let started = DispatchTime.now()
            var response = ErrorRenderer.json(ErrorResponse(error: "method_not_allowed", errorDescription: "Method not allowed."), status: 405)
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            metrics.observe(request, response, route: ServerMetrics.unmatchedRoute, listener: listener, since: started)
            return response
        }
        return router
    }
}
