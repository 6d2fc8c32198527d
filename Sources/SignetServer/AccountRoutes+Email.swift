import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

extension AccountRoutes {
    /// The Email section: the address and, with mail configured, the form that changes it (the
    /// current password, or a fresh sign-in for an account without one, as for deletion).
    func emailSection(_ session: ActiveSession, csrf: String, page: PageContext) -> String {
        var html = "<section id=\"email\">\n<h2>\(esc(page.text(EmailChangeText.heading)))</h2>\n"
        guard interactive.mailer.isMailConfigured else { return html + "</section>\n" }
        let user = session.user
        if user.passwordHash == nil, !isFresh(session) {
            html += "<p class=\"muted\">\(esc(page.text(EmailChangeText.freshHint, String(Self.freshSignInMinutes))))</p>\n"
            html += "<p><a href=\"\(Routes.accountReauth)\">\(esc(page.text(AccountPageText.reauthenticate)))</a></p>\n"
            return html + "</section>\n"
        }
        html += "<form method=\"post\" action=\"\(Routes.accountEmail)\">\n" + HTMLPage.hidden("csrf", csrf) + "\n"
        html += "<label for=\"new-email\">\(esc(page.text(EmailChangeText.newEmailLabel)))</label>\n"
        html += "<input id=\"new-email\" name=\"email\" type=\"email\" autocomplete=\"email\" maxlength=\"\(EmailAddress.maximumBytes)\" required>\n"
        if user.passwordHash != nil {
            html += "<label for=\"email-password\">\(esc(page.text(EmailChangeText.passwordLabel)))</label>\n"
            html += "<input id=\"email-password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required>\n"
        }
        html += "<button type=\"submit\">\(esc(page.text(EmailChangeText.submit)))</button>\n</form>\n"
        return html + "</section>\n"
    }

    /// `POST /account/email` (on a blocking-work thread: Argon2id). Re-authentication first (the
    /// current password, throttled like the sign-in page; without one, a sign-in within
    /// `freshSignInMinutes`), then the new address's rules (the sign-up policy, no `sso_required`
    /// domain on either side), then a code and link mailed to the new
    /// address (`EmailChallenges`, purpose `change_email`): nothing changes until it is answered.
    ///
    /// No enumeration, as at sign-up: an address that already has another account gets the same
    /// 303 to the code page, the same work (one challenge, one mail), and a mail that says so to
    /// its owner; its challenge can never be answered.
    func changeEmail(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, form in
            let mailer = interactive.mailer
            guard mailer.isMailConfigured else { return Self.back(.notFound) }
            let user = session.user
            let email: String
            do { email = try EmailAddress.normalize((try? form.single("email")) ?? "") } catch { return Self.back(.emailInvalid) }
            if user.passwordHash != nil {
                let password = (try? form.single("password")) ?? ""
                guard try interactive.signIn.signIn(email: user.email, password: password, clientAddress: request.clientKey)?.id == user.id else {
                    return Self.back(.wrongPassword)
                }
            } else if !isFresh(session) {
                return Self.back(.emailNeedsFreshSignIn)
            }
            guard email != user.email else { return Self.back(.emailUnchanged) }
            // The sign-up policy holds for a new address too, or "domains" could be left by a change.
            guard accounts.signUp != .domains || accounts.allowsSignUp(email: email) else { return Self.back(.emailDomainRefused) }
            // An sso_required domain on either side: docs/organizations.md, "Changing the address".
            if let refusal = try users.emailChangeRefusal(from: user.email, to: email) {
                interactive.server.audit("email_change_refused", subject: user.id, reason: refusal.reason)
                return Self.back(AccountNotice(refusal))
            }
            guard try mailer.challenges.admit(purpose: .changeEmail, email: email, clientAddress: request.clientKey, accountEmail: user.email) else {
                return SelfServiceRoutes.throttled(errors.page)
            }
            let taken = try storage.users.user(email: email) != nil
            let id = try mailer.send(.changeEmail, to: email, userID: taken ? nil : user.id, browserValue: request.cookies[interactive.csrfCookieName],
                                     requestHandle: nil, signUpOpen: false, language: errors.page.language)
            interactive.server.audit("email_change_requested", subject: user.id)
            return SelfServiceRoutes.toCodePage(id)
        }
    }
}
