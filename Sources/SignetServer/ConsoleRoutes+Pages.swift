import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

extension ConsoleRoutes {
    // MARK: dashboard

    /// `GET /console`: sign-ins today (from the audit trail), server errors since start
    /// (`ServerMetrics`), the signing keys' ages and the mail outbox's depth.
    func dashboard(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors) { op in
            let page = errors.page
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
        page(request, errors, showing: "listUsers", section: .users) { op, page in
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
        page(request, errors, showing: "getUser", section: .users) { op, page in
            let user = try op.service.user(try AdminRequest.id(request))
            var body = Self.notice(request, page)
            body += "<dl class=\"facts\">\n<dt>\(esc(page.text(ConsoleText.email)))</dt><dd>\(esc(user.email))</dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.userID)))</dt><dd><code>\(esc(user.id))</code></dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.status)))</dt><dd>\(esc(page.text(user.disabledAt == nil ? ConsoleText.active : ConsoleText.disabled)))</dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.consoleRole)))</dt><dd>\(esc(try op.service.operatorRole(user)?.rawValue ?? "–"))</dd>\n"
                + "<dt>\(esc(page.text(ConsoleText.created)))</dt><dd>\(esc(AccountRoutes.date(user.createdAt)))</dd>\n</dl>\n"
            let item = { (kind: String, id: String) in Self.path(Self.userItem, user.id).replacingOccurrences(of: "{kind}", with: kind)
                .replacingOccurrences(of: "{item}", with: FormEncoding.encodeComponent(id)) }
            // Sessions, grants, consents and second factors: the admin API's operations (AdminService+Sessions).
            /// One section per kind: each item's line and, with the write scope, its form.
            func section(_ id: String, _ list: String, _ write: String, heading: ConsoleText, empty: ConsoleText, button: ConsoleText,
                         items: () throws -> [JSONValue], key: String, line: (JSONValue) -> String) throws {
                guard op.may(list) else { return }
                let found = try items()
                body += "<section id=\"\(id)\">\n<h2>\(esc(page.text(heading)))</h2>\n"
                if found.isEmpty { body += "<p class=\"muted\">\(esc(page.text(empty)))</p>\n" }
                for entry in found {
                    body += "<div class=\"item\"><p>\(line(entry))</p>\n"
                    if op.may(write) { body += Self.form(item(id, entry[key]?.stringValue ?? ""), op, "", button: page.text(button), secondary: true) }
                    body += "</div>\n"
                }
                body += "</section>\n"
            }
            func words(_ value: JSONValue?) -> String { esc((value?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " ")) }
            try section("sessions", "listUserSessions", "endUserSession", heading: .sessionsHeading, empty: .noSessions, button: .endSession,
                        items: { try op.service.sessions(user, limit: 100, cursor: nil).items }, key: "id") { session in
                esc(page.text(ConsoleText.sessionDetail, session["auth_time"]?.stringValue ?? "", session["last_seen_at"]?.stringValue ?? ""))
                    + " <span class=\"muted\">\(words(session["amr"]))</span>"
            }
            try section("grants", "listUserGrants", "revokeUserGrant", heading: .grantsHeading, empty: .noGrants, button: .revokeGrant,
                        items: { try op.service.grants(user, limit: 100, cursor: nil).items }, key: "id") { grant in
                "<code>\(esc(grant["client"]?.stringValue ?? ""))</code> · \(esc(grant["scope"]?.stringValue ?? ""))"
                    + "<br><span class=\"muted\">\(esc(grant["created_at"]?.stringValue ?? ""))</span>"
            }
            try section("consents", "listUserConsents", "revokeUserConsent", heading: .consentsHeading, empty: .noConsents, button: .revokeConsent,
                        items: { try op.service.consents(user, limit: 100, cursor: nil).items }, key: "client") { consent in
                "<code>\(esc(consent["client"]?.stringValue ?? ""))</code> · \(words(consent["scopes"]))"
            }
            if op.may("getUserSecondFactors") {
                let factors = try op.service.secondFactors(user)
                let totp = factors["totp"]?.stringValue ?? "none"
                body += "<section id=\"mfa\">\n<h2>\(esc(page.text(ConsoleText.mfaHeading)))</h2>\n<p>"
                    + esc(page.text(ConsoleText.mfaState, totp, String(factors["recovery_codes"]?.intValue ?? 0))) + "</p>\n"
                if totp != "none", op.may("resetUserSecondFactors") {
                    body += Self.form(Self.path(Self.userAction, user.id, action: "mfa-reset"), op, "", button: page.text(ConsoleText.mfaReset), secondary: true)
                }
                body += "</section>\n"
            }
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

    /// The `{action}`s of `userAction`, each with its admin operation.
    static let userActions = ["disable": "disableUser", "enable": "enableUser", "revoke": "revokeUserSessions",
                              "mfa-reset": "resetUserSecondFactors", "delete": "deleteUser"]
    /// The `{kind}`s of `userItem`, each with its admin operation.
    static let userItemKinds = ["sessions": "endUserSession", "grants": "revokeUserGrant", "consents": "revokeUserConsent"]

    /// `POST /console/users/{id}/{action}`: disable, enable, revoke, mfa-reset or delete, through
    /// `AdminService` under the admin operation's scope. Deleting awaits `AccountDeletion` (which
    /// may revoke a token at Apple), so this handler is async.
    func userActionSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        guard let action = request.pathParameters["action"], let operation = Self.userActions[action] else {
            return errors.render(OAuthError(.invalidRequest, "No such action."), status: 404,
                                 title: errors.page.text(ConsoleText.notFoundTitle), message: errors.page.text(ConsoleText.notFound))
        }
        var deleting: (AdminService, UserRecord)?
        let answer = submit(request, errors, operation: operation) { op, form in
            let user = try op.service.user(try AdminRequest.id(request))
            let back = Self.path(Self.user, user.id)
            switch action {
            case "disable": _ = try op.service.setDisabled(user, true); return Self.back(back, ConsoleNotice.userDisabled.rawValue)
            case "enable": _ = try op.service.setDisabled(user, false); return Self.back(back, ConsoleNotice.userEnabled.rawValue)
            case "revoke": _ = try op.service.revokeSessionsAndTokens(user); return Self.back(back, ConsoleNotice.userRevoked.rawValue)
            case "mfa-reset": _ = try op.service.resetSecondFactors(user); return Self.back(back, ConsoleNotice.mfaReset.rawValue)
            default:
                // Deleting is for good: the form's box must be ticked (checked here too, not only by the browser).
                guard (try? form.single("confirm")) == "yes" else { return Self.back(back, ConsoleNotice.deleteNotConfirmed.rawValue) }
                deleting = (op.service, user)
                return Self.back(Self.users, ConsoleNotice.userDeleted.rawValue)
            }
        }
        guard let (service, user) = deleting else { return answer }
        do { try await service.deleteUser(user) } catch { return errors.internalError("console delete", error) }
        return answer
    }

    /// `POST /console/users/{id}/{kind}/{item}`: ends a session, revokes a grant or forgets a
    /// consent, through the admin API's operation for it.
    func userItemSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let kind = request.pathParameters["kind"], let operation = Self.userItemKinds[kind], let item = request.pathParameters["item"], !item.isEmpty else {
            return errors.render(OAuthError(.invalidRequest, "No such action."), status: 404,
                                 title: errors.page.text(ConsoleText.notFoundTitle), message: errors.page.text(ConsoleText.notFound))
        }
        return submit(request, errors, operation: operation) { op, _ in
            let user = try op.service.user(try AdminRequest.id(request))
            switch kind {
            case "sessions": _ = try op.service.endSession(user, sessionID: item)
            case "grants": try op.service.revokeGrant(user, grantID: item)
            default: try op.service.revokeConsent(user, clientID: item)
            }
            return Self.back(Self.path(Self.user, user.id), ConsoleNotice.itemEnded.rawValue)
        }
    }

    // MARK: connections

    /// `GET /console/connections`: each upstream connection, whether it is on, its last failure
    /// and last success (from the audit trail), and the callback URL to register at the provider.
    func connectionsPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors, showing: Self.connectionsOperation, section: .connections) { op, page in
            var body = ""
            if connections.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noConnections)))</p>\n" }
            for connection in try op.service.connections(limit: 200, cursor: nil, filter: nil).items {
                let id = connection["id"]?.stringValue ?? ""
                let status = connection["status"]?.stringValue ?? ""
                let lastError = connection["last_error"]?.objectValue
                body += "<section class=\"item connection\" id=\"connection-\(esc(id))\">\n<h2>\(esc(connection["display_name"]?.stringValue ?? id)) <span class=\"muted\">\(esc(id))</span></h2>\n<dl class=\"facts\">\n"
                    + "<dt>\(esc(page.text(ConsoleText.status)))</dt><dd><span class=\"status-\(esc(status))\">\(esc(status))</span></dd>\n"
                    + "<dt>\(esc(page.text(ConsoleText.callbackURL)))</dt><dd><code>\(esc(connection["callback_url"]?.stringValue ?? ""))</code></dd>\n"
                    + "<dt>\(esc(page.text(ConsoleText.lastError)))</dt><dd>"
                    + (lastError.map { "<code>\(esc($0["reason"]?.stringValue ?? ""))</code> \(esc($0["message"]?.stringValue ?? "")) · \(esc($0["at"]?.stringValue ?? ""))" } ?? esc(page.text(ConsoleText.none))) + "</dd>\n"
                    + "<dt>\(esc(page.text(ConsoleText.lastSuccess)))</dt><dd>\(esc(connection["last_success_at"]?.stringValue ?? page.text(ConsoleText.none)))</dd>\n</dl>\n</section>\n"
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
        page(request, errors, showing: "listKeys", section: .keys) { op, page in
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
        page(request, errors, showing: "listAudit", section: .audit) { op, page in
            let event = (request.query.first("event") ?? "").trimmingCharacters(in: .whitespaces).prefix(100)
            let actor = (request.query.first("actor") ?? "").trimmingCharacters(in: .whitespaces).prefix(200)
            let before = request.query.first("before").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
            let pageSize = 50
            // One page from the store, every filter in its WHERE (the actor through its index).
            let matching = try environment.storage.audit.listAudit(AuditQuery(event: event.isEmpty ? nil : String(event),
                                                                              actor: actor.isEmpty ? nil : String(actor),
                                                                              beforeSequence: before, limit: pageSize + 1))
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

    /// A page that shows what the admin operation `operation` reads: an operator whose role lacks
    /// its scope gets the 403 page of `section` instead.
    func page(_ request: HTTPRequest, _ errors: ErrorRenderer, showing operation: String, section: Section,
              _ body: (Operator, PageContext) throws -> HTTPResponse) -> HTTPResponse {
        page(request, errors) { op in
            guard op.may(operation) else { return notPermitted(op, errors.page, section: section, operation: operation) }
            return try body(op, errors.page)
        }
    }

    /// A page the operator's role may not see: 403, naming the scope it lacks.
    func notPermitted(_ op: Operator, _ page: PageContext, section: Section, operation: String) -> HTTPResponse {
        render(op, page, section: section, title: page.text(ConsoleText.notAllowedTitle),
               body: "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(page.text(ConsoleText.notAllowed, Self.scope(operation))))</p>\n", status: 403)
    }
}
