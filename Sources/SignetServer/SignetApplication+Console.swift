import SignetCore
import SignetCrypto
import SignetHTTP

extension SignetApplication {
    /// The console's built-in client (`ConsoleClient`), when the admin listener runs and has an
    /// address browsers can reach (`admin.console_url`, else the first `admin.listen` address).
    static func consoleClients(_ environment: ServerEnvironment) -> [Client] {
        let configuration = environment.configuration
        guard !configuration.admin.listen.isEmpty, let base = configuration.admin.consoleBase else { return [] }
        let masterKey = environment.masterKey
        let hash = ClientRegistry.hashSecret(ConsoleClient.secret(masterKey), key: masterKey.tokenHashKey)
        return ConsoleClient.client(consoleURL: base, scopes: AdminRoutes.scopes,
                                    resource: AdminAuthorizer.audience(issuer: configuration.issuer), secretHash: hash).map { [$0] } ?? []
    }

    /// The console's lines of the admin listener's table: its pages and forms (kind `.page`,
    /// store work on blocking-work threads), the brand's stylesheet and logo, and the console's
    /// own two assets. Nothing when the console has no client (no reachable address).
    func addConsoleRoutes(_ table: inout RouteTableBuilder) {
        guard let base = environment.configuration.admin.consoleBase, (try? authorizationServer.clients.client(id: ConsoleClient.id)) != nil else { return }
        let console = ConsoleRoutes(application: self, base: base)
        let assets = brandAssets
        table.add([.GET], assets.stylesheetPath, .api(.none)) { _ in .sync { _ in assets.stylesheetResponse() } }
        if let logo = assets.logo {
            table.add([.GET], logo.path, .api(.none)) { _ in .sync { _ in assets.logoResponse(logo) } }
        }
        table.add([.GET], ConsoleAssets.stylesheetPath, .api(.none)) { _ in .sync { _ in ConsoleAssets.stylesheetResponse() } }
        table.add([.GET], ConsoleAssets.scriptPath, .api(.none)) { _ in .sync { _ in ConsoleAssets.scriptResponse() } }
        let pages: [(HTTPMethod, String, @Sendable (ConsoleRoutes, HTTPRequest, ErrorRenderer) -> HTTPResponse)] = [
            (.GET, ConsoleRoutes.home, { $0.dashboard($1, $2) }),
            (.GET, ConsoleRoutes.callback, { $0.signInCallback($1, $2) }),
            (.POST, ConsoleRoutes.signOut, { $0.signOutSubmit($1, $2) }),
            (.GET, ConsoleRoutes.apps, { $0.appsPage($1, $2) }),
            (.POST, ConsoleRoutes.apps, { $0.createApp($1, $2) }),
            (.GET, ConsoleRoutes.newApp, { $0.newAppPage($1, $2) }),
            (.GET, ConsoleRoutes.app, { $0.appDetailPage($1, $2) }),
            (.POST, ConsoleRoutes.app, { $0.updateApp($1, $2) }),
            (.POST, ConsoleRoutes.appDelete, { $0.deleteApp($1, $2) }),
            (.POST, ConsoleRoutes.appSecret, { $0.rotateAppSecret($1, $2) }),
            (.GET, ConsoleRoutes.users, { $0.usersPage($1, $2) }),
            (.GET, ConsoleRoutes.user, { $0.userPage($1, $2) }),
            (.POST, ConsoleRoutes.userItem, { $0.userItemSubmit($1, $2) }),
            (.GET, ConsoleRoutes.orgs, { $0.orgsPage($1, $2) }),
            (.POST, ConsoleRoutes.orgs, { $0.createOrgSubmit($1, $2) }),
            (.GET, ConsoleRoutes.org, { $0.orgPage($1, $2) }),
            (.POST, ConsoleRoutes.orgAction, { $0.orgActionSubmit($1, $2) }),
            (.POST, ConsoleRoutes.orgItem, { $0.orgItemSubmit($1, $2) }),
            (.GET, ConsoleRoutes.connectionsPage, { $0.connectionsPage($1, $2) }),
            (.GET, ConsoleRoutes.keys, { $0.keysPage($1, $2) }),
            (.POST, ConsoleRoutes.keysRotate, { $0.rotateKeysSubmit($1, $2) }),
            (.GET, ConsoleRoutes.audit, { $0.auditPage($1, $2) }),
        ]
        for (method, path, handler) in pages {
            table.add([method], path, .page) { errors in Self.blocking("console", errors) { handler(console, $0, $1) } }
        }
        // Deleting a user awaits AccountDeletion (a revocation at Apple), so it is async.
        table.add([.POST], ConsoleRoutes.userAction, .page) { errors in .async { await console.userActionSubmit($0, errors) } }
    }

    /// Every console form a browser can post (the `POST` page lines of the admin listener's
    /// table), each `{action}` and `{kind}` spelled out over the values its handler takes
    /// (`ConsoleRoutes.formChoices`); `{id}` and `{item}` stay for the caller to fill. For the test
    /// that every form, one added later too, is refused without its CSRF field.
    public func consoleFormPaths() -> [String] {
        adminRouteTable().filter { $0.kind == .page && $0.methods.contains(.POST) }.flatMap { route in
            ConsoleRoutes.formChoices(route.path).reduce([route.path]) { paths, choice in
                paths.flatMap { path in choice.values.sorted().map { path.replacingOccurrences(of: "{\(choice.parameter)}", with: $0) } }
            }
        }
    }
}

extension ConsoleRoutes {
    /// The fixed values a console form's path parameter takes (its handler refuses any other), by route.
    static func formChoices(_ path: String) -> [(parameter: String, values: [String])] {
        switch path {
        case userAction: [("action", Array(userActions.keys))]
        case userItem: [("kind", Array(userItemKinds.keys))]
        case orgAction: [("action", Array(orgActions.keys))]
        case orgItem: [("kind", Array(orgItemKinds.keys))]
        default: []
        }
    }
}
