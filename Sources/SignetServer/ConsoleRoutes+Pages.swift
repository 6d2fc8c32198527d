import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

extension ConsoleRoutes {
    // MARK: dashboard

    /// `GET /console`: sign-ins today (from the audit trail), server errors since start
    /// (`ServerMetrics`), the signing keys' ages and the mail outbox's depth.
    func dashboard(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            func esc(_ text: String) -> String { HTMLPage.escape(text) }
            let now = environment.clock.now
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let today = calendar.startOfDay(for: now)
            var successes = 0, failures = 0
            if op.may("listAudit") {
                for event in try environment.storage.audit.listAudit(AuditQuery(since: today, limit: 100_000)) {
                    guard let signIn = ServerMetrics.signInEvents[event.event] else { continue }
                    if signIn.result == "success" { successes += 1 } else { failures += 1 }
                }
            }
            let outbox = try environment.storage.mailOutbox.pendingCount()
            var body = "<div class=\"tiles\">\n"
            func tile(_ id: String, _ value: String, _ label: ConsoleText) {
                body += "<div class=\"tile\" id=\"\(id)\"><span class=\"value\">\(esc(value))</span><span class=\"label\">\(esc(page.text(label)))</span></div>\n"
            }
            tile("sign-ins-today", op.may("listAudit") ? String(successes) : "–", .signInsToday)
            tile("sign-in-failures-today", op.may("listAudit") ? String(failures) : "–", .failuresToday)
            tile("server-errors", String(metrics.serverErrorCount), .serverErrors)
            tile("outbox-depth", String(outbox), .outboxDepth)
            body += "</div>\n"
            body += "<section id=\"key-ages\">\n<h2>\(esc(page.text(ConsoleText.keyAgesHeading)))</h2>\n"
            let signing = try environment.keyRing.records().filter { $0.canSign(at: now) }.sorted { $0.algorithm < $1.algorithm }
            if signing.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noKeys)))</p>\n" }
            body += "<ul>\n"
            for record in signing {
                let days = Int(now.timeIntervalSince(record.activatesAt) / 86_400)
                body += "<li><strong>\(esc(record.algorithm))</strong> · \(esc(page.text(ConsoleText.keyAgeDays, String(max(0, days)))))</li>\n"
            }
            body += "</ul>\n</section>\n"
            return render(op, page, section: .dashboard, title: page.text(ConsoleText.dashboardTitle), body: body)
        }
    }

    // MARK: users

    /// `GET /console/users?q=`: users whose email or name contains `q`, at most 100.
    func usersPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            func esc(_ text: String) -> String { HTMLPage.escape(text) }
            guard op.may("listUsers") else { return notPermitted(op, page, section: .users, operation: "listUsers") }
            let query = String((request.query.first("q") ?? "").prefix(256))
            var body = Self.notice(request, page)
            body += "<form method=\"get\" action=\"\(Self.users)\" class=\"search\" role=\"search\">\n<label for=\"q\">\(esc(page.text(ConsoleText.searchUsers)))</label>\n"
                + "<input id=\"q\" name=\"q\" type=\"search\" value=\"\(esc(query))\">\n<button type=\"submit\">\(esc(page.text(ConsoleText.search)))</button>\n</form>\n"
            let found = try op.service.users(limit: 100, cursor: nil, filter: query.isEmpty ? nil : query).items
            if found.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noUsers)))</p>\n" }
            else {
                body += "<div class=\"table\"><table>\n<thead><tr><th>\(esc(page.text(ConsoleText.email)))</th><th>\(esc(page.text(ConsoleText.status)))</th></tr></thead>\n<tbody>\n"
                for user in found {
                    let id = user["id"]?.stringValue ?? ""
                    let disabled = user["disabled"]?.boolValue == true
                    body += "<tr><td><a href=\"\(esc(Self.path(Self.user, id)))\">\(esc(user["email"]?.stringValue ?? id))</a></td>"
                        + "<td>\(esc(page.text(disabled ? ConsoleText.disabled : ConsoleText.active)))</td></tr>\n"
                }
                body += "</tbody></table></div>\n"
            }
            return render(op, page, section: .users, title: page.text(ConsoleText.usersTitle), body: body)
        }
    }

    /// `GET /console/users/{id}`: the user, its sessions, and (write role) disable, revoke, delete.
    func userPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            func esc(_ text: String) -> String { HTMLPage.escape(text) }
            guard op.may("getUser") else { return notPermitted(op, page, section: .users, operation: "getUser") }
            let user = try op.service.user(try AdminRequest.id(request))
            var body = Self.notice(request, page)
            body += "<dl class=\"facts\">\n<dt>\(esc(page.text(ConsoleText.email)))</dt><dd>\(esc(user.email))</dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.userID)))</dt><dd><code>\(esc(user.id))</code></dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.status)))</dt><dd>\(esc(page.text(user.disabledAt == nil ? ConsoleText.active : ConsoleText.disabled)))</dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.consoleRole)))</dt><dd>\(esc(try op.service.operatorRole(user)?.rawValue ?? "–"))</dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.created)))</dt><dd>\(esc(AccountRoutes.date(user.createdAt)))</dd>\n</dl>\n"
            let sessions = try environment.storage.sessions.activeSessions(userID: user.id, now: environment.clock.now)
            body += "<section id=\"sessions\">\n<h2>\(esc(page.text(ConsoleText.sessionsHeading)))</h2>\n"
            if sessions.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noSessions)))</p>\n" }
            else {
                body += "<ul>\n" + sessions.map { "<li>\(esc(page.text(ConsoleText.sessionDetail, AccountRoutes.date($0.authTime), AccountRoutes.date($0.lastSeenAt))))</li>" }.joined(separator: "\n") + "\n</ul>\n"
            }
            body += "</section>\n"
            if op.may("disableUser") {
                body += "<section id=\"actions\">\n<h2>\(esc(page.text(ConsoleText.actionsHeading)))</h2>\n<div class=\"actions\">\n"
                if user.disabledAt == nil {
                    body += Self.form(Self.path(Self.userAction, user.id, action: "disable"), op, "", button: page.text(ConsoleText.disableUser), secondary: true)
                } else {
                    body += Self.form(Self.path(Self.userAction, user.id, action: "enable"), op, "", button: page.text(ConsoleText.enableUser), secondary: true)
                }
                body += Self.form(Self.path(Self.userAction, user.id, action: "revoke"), op, "", button: page.text(ConsoleText.revokeUser), secondary: true)
                body += Self.form(Self.path(Self.userAction, user.id, action: "delete"), op,
                                  "<label class=\"choice\"><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required> \(esc(page.text(ConsoleText.confirmDelete)))</label>\n",
                                  button: page.text(ConsoleText.deleteUser), danger: true)
                body += "</div>\n</section>\n"
            }
            return render(op, page, section: .users, title: user.email, body: body)
        }
    }

    /// `POST /console/users/{id}/{action}`: disable, enable, revoke or delete, through
    /// `AdminService` under the admin operation's scope.
    func userActionSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let operations = ["disable": "disableUser", "enable": "enableUser", "revoke": "revokeUserSessions", "delete": "deleteUser"]
        guard let action = request.pathParameters["action"], let operation = operations[action] else {
            return errors.render(OAuthError(.invalidRequest, "No such action."), status: 404,
                                 title: errors.page.text(ConsoleText.notFoundTitle), message: errors.page.text(ConsoleText.notFound))
        }
        return submit(request, errors, operation: operation) { op, form in
            let user = try op.service.user(try AdminRequest.id(request))
            let back = Self.path(Self.user, user.id)
            switch action {
            case "disable": _ = try op.service.setDisabled(user, true); return Self.back(back, ConsoleNotice.userDisabled.rawValue)
            case "enable": _ = try op.service.setDisabled(user, false); return Self.back(back, ConsoleNotice.userEnabled.rawValue)
            case "revoke": _ = try op.service.revokeSessionsAndTokens(user); return Self.back(back, ConsoleNotice.userRevoked.rawValue)
            default:
                // Deleting is for good: the form's box must be ticked (checked here too, not only by the browser).
                guard (try? form.single("confirm")) == "yes" else { return Self.back(back, ConsoleNotice.deleteNotConfirmed.rawValue) }
                try op.service.deleteUser(user)
                return Self.back(Self.users, ConsoleNotice.userDeleted.rawValue)
            }
        }
    }

    // MARK: connections

    /// `GET /console/connections`: each upstream connection, whether it is on, its last failure
    /// and last success (from the audit trail), and the callback URL to register at the provider.
    func connectionsPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            func esc(_ text: String) -> String { HTMLPage.escape(text) }
            guard op.may(Self.connectionsOperation) else { return notPermitted(op, page, section: .connections, operation: Self.connectionsOperation) }
            var body = ""
            if connections.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noConnections)))</p>\n" }
            let failures = try environment.storage.audit.listAudit(AuditQuery(event: "federation_failed", limit: 1000))
            let successes = try environment.storage.audit.listAudit(AuditQuery(event: "federated_sign_in", limit: 1000))
            let root = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
            for connection in connections {
                let method = "fed:" + connection.id
                let failure = failures.first { $0.method == method }
                let success = successes.first { $0.method == method }
                body += "<section class=\"item connection\" id=\"connection-\(esc(connection.id))\">\n<h2>\(esc(connection.displayName)) <span class=\"muted\">\(esc(connection.id))</span></h2>\n<dl class=\"facts\">\n"
                    + "<dt>\(esc(page.text(ConsoleText.status)))</dt><dd>\(esc(page.text(connection.enabled ? ConsoleText.enabled : ConsoleText.disabled)))</dd>\n"
                    + "<dt>\(esc(page.text(ConsoleText.callbackURL)))</dt><dd><code>\(esc(root + Routes.federationCallbackPrefix + connection.id))</code></dd>\n"
                    + "<dt>\(esc(page.text(ConsoleText.lastError)))</dt><dd>"
                    + (failure.map { "<code>\(esc($0.reason ?? "-"))</code> · \(esc(AccountRoutes.date($0.at)))" } ?? esc(page.text(ConsoleText.none))) + "</dd>\n"
                    + "<dt>\(esc(page.text(ConsoleText.lastSuccess)))</dt><dd>"
                    + (success.map { esc(AccountRoutes.date($0.at)) } ?? esc(page.text(ConsoleText.none))) + "</dd>\n</dl>\n</section>\n"
            }
            return render(op, page, section: .connections, title: page.text(ConsoleText.connectionsTitle), body: body)
        }
    }

    /// The admin operation whose scope the connections page needs: the admin API's connection
    /// list once it has one, the client list's until then (both are read-only views of the setup).
    static var connectionsOperation: String {
        AdminRoutes.operations.contains { $0.operationID == "listConnections" } ? "listConnections" : "listClients"
    }

    // MARK: keys

    /// `GET /console/keys`: every signing key with its status and age; rotate (write role).
    func keysPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            func esc(_ text: String) -> String { HTMLPage.escape(text) }
            guard op.may("listKeys") else { return notPermitted(op, page, section: .keys, operation: "listKeys") }
            var body = Self.notice(request, page)
            body += "<div class=\"table\"><table>\n<thead><tr><th>\(esc(page.text(ConsoleText.keyID)))</th><th>\(esc(page.text(ConsoleText.algorithm)))</th><th>\(esc(page.text(ConsoleText.status)))</th><th>\(esc(page.text(ConsoleText.created)))</th></tr></thead>\n<tbody>\n"
            for key in try op.service.keys() {
                body += "<tr><td><code>\(esc(key["id"]?.stringValue ?? ""))</code></td><td>\(esc(key["algorithm"]?.stringValue ?? ""))</td>"
                    + "<td>\(esc(key["status"]?.stringValue ?? ""))</td><td>\(esc(key["created_at"]?.stringValue ?? ""))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
            if op.may("rotateKeys") {
                body += "<section id=\"rotate\">\n<h2>\(esc(page.text(ConsoleText.rotateKeysHeading)))</h2>\n<p class=\"muted\">\(esc(page.text(ConsoleText.rotateKeysHint)))</p>\n"
                    + Self.form(Self.keysRotate, op, "", button: page.text(ConsoleText.rotateKeys)) + "</section>\n"
            }
            return render(op, page, section: .keys, title: page.text(ConsoleText.keysTitle), body: body)
        }
    }

    /// `POST /console/keys/rotate`: a new key per required algorithm, pre-published as configured.
    func rotateKeysSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submit(request, errors, operation: "rotateKeys") { op, _ in
            _ = try op.service.rotateKeys(algorithm: nil, prepublishSeconds: nil)
            return Self.back(Self.keys, ConsoleNotice.keysRotated.rawValue)
        }
    }

    // MARK: audit

    /// `GET /console/audit?event=&actor=&before=`: 50 events a page, newest first.
    func auditPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
            func esc(_ text: String) -> String { HTMLPage.escape(text) }
            guard op.may("listAudit") else { return notPermitted(op, page, section: .audit, operation: "listAudit") }
            let event = (request.query.first("event") ?? "").trimmingCharacters(in: .whitespaces).prefix(100)
            let actor = (request.query.first("actor") ?? "").trimmingCharacters(in: .whitespaces).prefix(200)
            let before = request.query.first("before").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
            let pageSize = 50
            // Filtered by actor in memory over a bounded window of the newest matching events.
            let window = try environment.storage.audit.listAudit(AuditQuery(event: event.isEmpty ? nil : String(event),
                                                                            beforeSequence: before, limit: actor.isEmpty ? pageSize + 1 : 5_000))
            let matching = actor.isEmpty ? window : window.filter { $0.actor == String(actor) }
            let shown = Array(matching.prefix(pageSize))
            var body = "<form method=\"get\" action=\"\(Self.audit)\" class=\"filters\">\n"
                + "<div><label for=\"event\">\(esc(page.text(ConsoleText.eventFilter)))</label><input id=\"event\" name=\"event\" type=\"text\" value=\"\(esc(String(event)))\"></div>\n"
                + "<div><label for=\"actor\">\(esc(page.text(ConsoleText.actorFilter)))</label><input id=\"actor\" name=\"actor\" type=\"text\" value=\"\(esc(String(actor)))\"></div>\n"
                + "<button type=\"submit\">\(esc(page.text(ConsoleText.filter)))</button>\n</form>\n"
            if shown.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noEvents)))</p>\n" }
            else {
                body += "<div class=\"table\"><table id=\"audit\">\n<thead><tr><th>#</th><th>\(esc(page.text(ConsoleText.time)))</th><th>\(esc(page.text(ConsoleText.event)))</th><th>\(esc(page.text(ConsoleText.actor)))</th><th>\(esc(page.text(ConsoleText.subject)))</th><th>\(esc(page.text(ConsoleText.reason)))</th></tr></thead>\n<tbody>\n"
                for row in shown {
                    body += "<tr><td>\(row.sequence)</td><td>\(esc(AccountRoutes.date(row.at)))</td><td><code>\(esc(row.event))</code></td>"
                        + "<td>\(esc(row.actor ?? "–"))</td><td>\(esc(row.subjectID ?? row.clientID ?? "–"))</td><td>\(esc(row.reason ?? ""))</td></tr>\n"
                }
                body += "</tbody></table></div>\n"
            }
            if matching.count > pageSize, let last = shown.last {
                var parameters = [("before", String(last.sequence))]
                if !event.isEmpty { parameters.append(("event", String(event))) }
                if !actor.isEmpty { parameters.append(("actor", String(actor))) }
                body += "<p><a id=\"older\" href=\"\(Self.audit)?\(esc(FormEncoding.encode(parameters)))\">\(esc(page.text(ConsoleText.older)))</a></p>\n"
            }
            return render(op, page, section: .audit, title: page.text(ConsoleText.auditTitle), body: body)
        }
    }

    /// A page the operator's role may not see: 403, naming the scope it lacks.
    func notPermitted(_ op: Operator, _ page: PageContext, section: Section, operation: String) -> HTTPResponse {
        render(op, page, section: section, title: page.text(ConsoleText.notAllowedTitle),
               body: "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(page.text(ConsoleText.notAllowed, Self.scope(operation))))</p>\n", status: 403)
    }
}
