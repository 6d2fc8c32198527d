import Foundation
import SignetCore
import SignetStore

extension AccountRoutes {
    /// The page's sections, each form carrying `csrf`.
    func render(_ session: ActiveSession, csrf: String, notice: AccountNotice?, page: PageContext) throws -> String {
        let user = session.user
        let now = clock.now
        func form(_ action: String, _ fields: String, button: AccountPageText, secondary: Bool = false) -> String {
            "<form method=\"post\" action=\"\(action)\">\n" + HTMLPage.hidden("csrf", csrf) + "\n" + fields
                + "<button type=\"submit\"\(secondary ? " class=\"secondary\"" : "")>\(esc(page.text(button)))</button>\n</form>\n"
        }
        var body = ""
        if let notice {
            body += notice.isError ? "<p class=\"error\" role=\"alert\">\(esc(notice.text(page)))</p>\n"
                : "<p class=\"notice\" role=\"status\">\(esc(notice.text(page)))</p>\n"
        }
        body += "<p>\(page.html(AccountPageText.signedInAs, "<strong>\(esc(user.email))</strong>"))</p>\n"

        // Profile.
        body += "<section id=\"profile\">\n<h2>\(esc(page.text(AccountPageText.profileHeading)))</h2>\n"
        body += form(Routes.accountName, "<label for=\"name\">\(esc(page.text(AccountPageText.nameLabel)))</label>\n"
            + "<input id=\"name\" name=\"name\" type=\"text\" autocomplete=\"name\" maxlength=\"200\" value=\"\(esc(user.name ?? ""))\">\n",
            button: .saveName)
        body += "</section>\n"

        body += emailSection(session, csrf: csrf, page: page)

        // Password.
        body += "<section id=\"password\">\n<h2>\(esc(page.text(AccountPageText.passwordHeading)))</h2>\n"
        if user.passwordHash != nil {
            body += form(Routes.accountPassword,
                         "<label for=\"current-password\">\(esc(page.text(AccountPageText.currentPasswordLabel)))</label>\n"
                         + "<input id=\"current-password\" name=\"current_password\" type=\"password\" autocomplete=\"current-password\" required>\n"
                         + "<label for=\"new-password\">\(esc(page.text(AccountPageText.newPasswordLabel)))</label>\n"
                         + "<input id=\"new-password\" name=\"new_password\" type=\"password\" autocomplete=\"new-password\" minlength=\"8\" required>\n"
                         + "<p class=\"muted\">\(esc(page.text(AccountPageText.passwordRules)))</p>\n",
                         button: .changePassword)
        } else {
            body += "<p class=\"muted\">\(esc(page.text(AccountPageText.setPasswordHint)))</p>\n"
        }
        body += "</section>\n"

        // Linked identities.
        body += "<section id=\"identities\">\n<h2>\(esc(page.text(AccountPageText.identitiesHeading)))</h2>\n"
        let identities = try storage.users.federatedIdentities(userID: user.id)
        if identities.isEmpty { body += "<p class=\"muted\">\(esc(page.text(AccountPageText.noIdentities)))</p>\n" }
        for identity in identities {
            let name = interactive.federation.connections.first { $0.id == identity.connectionID }?.displayName ?? identity.connectionID
            body += "<div class=\"item\"><p><strong>\(esc(name))</strong>"
            if let email = identity.email { body += " · \(esc(email))" }
            body += "<br><span class=\"muted\">\(esc(page.text(AccountPageText.linkedSince, Self.date(identity.createdAt))))</span></p>\n"
            body += form(Routes.accountUnlink, HTMLPage.hidden("connection", identity.connectionID) + "\n",
                         button: .unlink, secondary: true)
            body += "</div>\n"
        }
        body += "</section>\n"

        // Security: passkeys and the authenticator app, each on its own page.
        body += "<section id=\"security\">\n<h2>\(esc(page.text(AccountPageText.securityHeading)))</h2>\n"
        body += "<p><a href=\"\(Routes.accountPasskeys)\">\(esc(page.text(AccountPageText.passkeysLink)))</a></p>\n"
        body += "<p><a href=\"\(Routes.accountTOTP)\">\(esc(page.text(AccountPageText.twoStepLink)))</a></p>\n"
        body += "</section>\n"

        // Sessions.
        body += "<section id=\"sessions\">\n<h2>\(esc(page.text(AccountPageText.sessionsHeading)))</h2>\n"
        let sessions = try storage.sessions.activeSessions(userID: user.id, now: now)
        for record in sessions {
            let id = SessionManager.publicID(idHash: record.idHash)
            let current = id == session.publicID
            let detail = page.text(AccountPageText.sessionDetail, Self.date(record.authTime), Self.date(record.lastSeenAt))
            body += "<div class=\"item\"\(current ? " id=\"this-session\"" : "")><p>"
            if current { body += "<strong>\(esc(page.text(AccountPageText.thisSession)))</strong><br>" }
            body += "<span class=\"muted\">\(esc(detail))</span></p>\n"
            if !current {
                body += form(Routes.accountSessionEnd, HTMLPage.hidden("session", id) + "\n", button: .endSession, secondary: true)
            }
            body += "</div>\n"
        }
        if sessions.count > 1 {
            body += form(Routes.accountSessionsEndOthers, "", button: .endOtherSessions, secondary: true)
        }
        body += "</section>\n"

        // Apps with refresh grants.
        body += "<section id=\"apps\">\n<h2>\(esc(page.text(AccountPageText.appsHeading)))</h2>\n"
        let grants = try storage.refreshTokens.activeRefreshGrants(userID: user.id, now: now)
        if grants.isEmpty { body += "<p class=\"muted\">\(esc(page.text(AccountPageText.noApps)))</p>\n" }
        for grant in grants {
            let name = (try? interactive.server.clients.client(id: grant.clientID))??.name ?? grant.clientID
            body += "<div class=\"item\"><p><strong>\(esc(name))</strong><br><span class=\"muted\">"
                + "\(esc(page.text(AccountPageText.appDetail, Self.date(grant.createdAt))))</span></p>\n"
            body += form(Routes.accountAppRevoke, HTMLPage.hidden("grant", grant.grantID) + "\n", button: .revoke, secondary: true)
            body += "</div>\n"
        }
        body += "</section>\n"

        // Delete.
        body += "<section id=\"delete\">\n<h2>\(esc(page.text(AccountPageText.deleteHeading)))</h2>\n<p>\(esc(page.text(AccountPageText.deleteWarning)))</p>\n"
        if user.passwordHash != nil {
            body += form(Routes.accountDelete, "<label for=\"delete-password\">\(esc(page.text(AccountPageText.deletePasswordLabel)))</label>\n"
                         + "<input id=\"delete-password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required>\n",
                         button: .deleteButton)
        } else if isFresh(session) {
            body += form(Routes.accountDelete, "", button: .deleteButton)
        } else {
            body += "<p class=\"muted\">\(esc(page.text(AccountPageText.deleteFreshHint, String(Self.freshSignInMinutes))))</p>\n"
            body += "<p><a href=\"\(Routes.accountReauth)\">\(esc(page.text(AccountPageText.reauthenticate)))</a></p>\n"
        }
        body += "</section>\n"
        return body
    }

    /// A date as `2026-12-01 14:05 UTC` (the page has no script to localise it).
    static func date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)) UTC"
    }
}
