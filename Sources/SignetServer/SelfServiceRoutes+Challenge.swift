import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetMail
import SignetStore
import SignetWire

extension SelfServiceRoutes {
    /// `GET /email/code?challenge=…`: "we are sending a code to …" and the code field (with the
    /// new password for a reset).
    func codePage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let browser = interactive.browserValue(request)
        do {
            guard let id = request.query.first("challenge"), let record = try challenges.usable(id: id) else {
                return deadChallenge(errors.page, handle: nil)
            }
            return Self.withCookie(codeForm(errors.page, record, browserValue: browser.value, error: nil, password: "", visible: false, status: 200),
                                   browser.cookie)
        } catch {
            return errors.internalError("code page", error)
        }
    }

    func codeForm(_ context: PageContext, _ record: EmailChallengeRecord, browserValue: String, error: String?, password: String, visible: Bool,
                  status: Int, removePasskeys: Bool = false) -> HTTPResponse {
        var body = ""
        body += "<p>\(context.html(EmailChallengeText.sentTo, "<strong>\(HTMLPage.escape(record.email))</strong>"))</p>\n"
        let minutes = Int(record.expiresAt.timeIntervalSince(record.createdAt)) / 60
        body += "<p class=\"muted\">\(context.html(EmailChallengeText.onItsWay, String(minutes)))</p>\n"
        if let error { body += Self.errorParagraph(error) }
        body += "<form id=\"email-code-form\" method=\"post\" action=\"\(Routes.emailCode)\">\n"
        body += HTMLPage.hidden("challenge", record.id) + "\n"
        body += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: browserValue, purpose: record.id)) + "\n"
        body += "<label for=\"code\">\(context.html(EmailChallengeText.code))</label>\n"
        body += "<input id=\"code\" name=\"code\" type=\"text\" class=\"code\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"12\" required autofocus>\n"
        if record.purpose == .resetPassword {
            body += Self.passwordField(label: context.text(EmailChallengeText.newPassword), value: password, visible: visible,
                                       hint: context.text(SignUpText.passwordHint), page: context)
            body += Self.removePasskeysBox(checked: removePasskeys, page: context)
        }
        return challengePage(context, record, title: EmailChallengeText.codeTitle, body: body, button: EmailChallengeText.submit,
                             form: "email-code-form", status: status)
    }

    /// A challenge's page: `body` up to its form's last field, then the submit button; when the
    /// challenge ends a sign-up that continues to a client, the passkey box for `form` and its script.
    func challengePage(_ context: PageContext, _ record: EmailChallengeRecord, title: any PageStrings, body: String, button: any PageStrings,
                       form: String, status: Int) -> HTTPResponse {
        let offersPasskey = record.purpose == .verifyEmail && challenges.requestHandle(of: record) != nil
        var body = body + "<button type=\"submit\" name=\"action\" value=\"submit\">\(context.html(button))</button>\n</form>\n"
        if offersPasskey { body += PasskeyRoutes.capabilityBox(form: form) }
        var response = HTMLPage.response(context, title: context.text(title), body: body, status: status, formLeadsToClient: true)
        if offersPasskey { PasskeyScript.allow(&response) }
        return response
    }

    /// `POST /email/code`: the code (and for a reset the new password). A wrong code counts one
    /// of the 5 attempts; a malformed one, a weak new password or a show/hide post counts none.
    func codeSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), let id = try? form.single("challenge") else {
            return errors.malformedForm()
        }
        guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: id) else { return errors.csrfFailure() }
        let browserValue = request.cookies[interactive.csrfCookieName]
        let password = (try? form.single("password")) ?? ""
        do {
            guard let record = try challenges.usable(id: id) else { return deadChallenge(errors.page, handle: nil) }
            let handle = challenges.requestHandle(of: record)
            func again(_ error: String?, visible: Bool = false, status: Int = 400) -> HTTPResponse {
                codeForm(errors.page, record, browserValue: browserValue ?? "", error: error,
                         password: password.utf8.count <= UserService.maximumPasswordBytes ? password : "", visible: visible, status: status,
                         removePasskeys: Self.removesPasskeys(form))
            }
            if record.purpose == .resetPassword {
                if let visible = Self.toggle(form) { return again(nil, visible: visible, status: 200) }
                do { try UserService.checkNewPassword(password) } catch { return again(ValidationText.message(error, errors.page)) }
            }
            if record.purpose == .signIn, !challenges.isSameBrowser(record, browserValue: browserValue) {
                return Self.notice(errors.page, EmailChallengeText.otherBrowserTitle, EmailChallengeText.otherBrowserBody, status: 403)
            }
            switch try challenges.answer(id: id, purpose: record.purpose, code: (try? form.single("code")) ?? "") {
            case nil: return again(errors.page.text(EmailChallengeText.codeMalformed))
            case .wrong(let left)?:
                server.auditor.record("email_code_wrong", subject: record.userID)
                return left > 0 ? again(errors.page.text(EmailChallengeText.codeWrong, String(left))) : deadChallenge(errors.page, handle: handle)
            case .dead?: return deadChallenge(errors.page, handle: handle)
            case .accepted(let used)?:
                return try complete(used, password: password, browserValue: browserValue, request: request, form: form, way: .emailCode, errors)
            }
        } catch {
            return errors.internalError("email code", error)
        }
    }

    /// `GET /email/link?token=…`: never acts (mail scanners open links); shows the button that
    /// does, or for a sign-in link opened in another browser, says to enter the code there.
    func linkPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let browser = interactive.browserValue(request)
        do {
            guard let token = request.query.first("token"), let record = try challenges.usable(linkToken: token), record.userID != nil else {
                return deadChallenge(errors.page, handle: nil)
            }
            if record.purpose == .signIn, !challenges.isSameBrowser(record, browserValue: browser.cookie == nil ? browser.value : nil) {
                return Self.notice(errors.page, EmailChallengeText.otherBrowserTitle, EmailChallengeText.otherBrowserBody)
            }
            return Self.withCookie(linkForm(errors.page, record, token: token, browserValue: browser.value, error: nil, password: "", visible: false,
                                            status: 200), browser.cookie)
        } catch {
            return errors.internalError("email link", error)
        }
    }

    func linkForm(_ context: PageContext, _ record: EmailChallengeRecord, token: String, browserValue: String, error: String?, password: String, visible: Bool,
                  status: Int, removePasskeys: Bool = false) -> HTTPResponse {
        let texts: (title: any PageStrings, body: (any PageStrings)?, button: any PageStrings)
        switch record.purpose {
        case .verifyEmail: texts = (EmailChallengeText.confirmTitle, EmailChallengeText.confirmBody, EmailChallengeText.confirmButton)
        case .resetPassword: texts = (EmailChallengeText.resetTitle, nil, EmailChallengeText.resetButton)
        case .signIn: texts = (EmailChallengeText.signInTitle, EmailChallengeText.signInBody, EmailChallengeText.signInButton)
        case .changeEmail: texts = (EmailChangeText.linkTitle, EmailChangeText.linkBody, EmailChangeText.linkButton)
        }
        var body = ""
        if let lead = texts.body { body += "<p>\(context.html(lead, "<strong>\(HTMLPage.escape(record.email))</strong>"))</p>\n" }
        if let error { body += Self.errorParagraph(error) }
        body += "<form id=\"email-link-form\" method=\"post\" action=\"\(Routes.emailLink)\">\n"
        body += HTMLPage.hidden("token", token) + "\n"
        body += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: browserValue, purpose: "link:" + record.id)) + "\n"
        if record.purpose == .resetPassword {
            body += "<input type=\"hidden\" name=\"username\" autocomplete=\"username\" value=\"\(HTMLPage.escape(record.email))\">\n"
            body += Self.passwordField(label: context.text(EmailChallengeText.newPassword), value: password, visible: visible,
                                       hint: context.text(SignUpText.passwordHint), page: context)
            body += Self.removePasskeysBox(checked: removePasskeys, page: context)
        }
        return challengePage(context, record, title: texts.title, body: body, button: texts.button, form: "email-link-form", status: status)
    }

    /// `POST /email/link`: uses the link's challenge (once) and does what it is for.
    func linkSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), let token = try? form.single("token") else { return errors.malformedForm() }
        let browserValue = request.cookies[interactive.csrfCookieName]
        let password = (try? form.single("password")) ?? ""
        do {
            guard let record = try challenges.usable(linkToken: token), record.userID != nil else { return deadChallenge(errors.page, handle: nil) }
            guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: "link:" + record.id) else {
                return errors.csrfFailure()
            }
            if record.purpose == .signIn, !challenges.isSameBrowser(record, browserValue: browserValue) {
                return Self.notice(errors.page, EmailChallengeText.otherBrowserTitle, EmailChallengeText.otherBrowserBody, status: 403)
            }
            if record.purpose == .resetPassword {
                func again(_ error: String?, visible: Bool, status: Int) -> HTTPResponse {
                    linkForm(errors.page, record, token: token, browserValue: browserValue ?? "", error: error,
                             password: password.utf8.count <= UserService.maximumPasswordBytes ? password : "", visible: visible, status: status,
                             removePasskeys: Self.removesPasskeys(form))
                }
                if let visible = Self.toggle(form) { return again(nil, visible: visible, status: 200) }
                do { try UserService.checkNewPassword(password) } catch { return again(ValidationText.message(error, errors.page), visible: false, status: 400) }
            }
            guard let used = try challenges.answer(linkToken: token, purpose: record.purpose) else {
                return deadChallenge(errors.page, handle: challenges.requestHandle(of: record))
            }
            return try complete(used, password: password, browserValue: browserValue, request: request, form: form, way: .emailLink, errors)
        } catch {
            return errors.internalError("email link", error)
        }
    }

    /// What an answered challenge does; this caller is the only one that got it.
    ///
    /// - verify: the address is confirmed; in the browser that signed up, with its pending
    ///   request still there, the user is signed in (they set the password there moments ago) and
    ///   the request continues; elsewhere a page says to go back.
    /// - reset: the new password is set, which ends every session and revokes every grant
    ///   (`UserService.setPassword`), and the address counts as confirmed (the code came to it);
    ///   the passkeys stay unless the form asked to remove them (`resetPasskeys`).
    /// - sign in: a session with `amr` ["otp"] (RFC 8176 §2: a one-time password), the address
    ///   confirmed, and the pending request continues.
    ///
    /// After a sign-up in a browser that can make passkeys (the form's `passkey_capable`, set by
    /// the passkey script), the offer to add one comes before the request continues, as after a
    /// password sign-in (`InteractiveRoutes.passkeyOfferWanted`).
    func complete(_ record: EmailChallengeRecord, password: String, browserValue: String?, request: HTTPRequest, form: RequestParameters,
                  way: SignInWay, _ errors: ErrorRenderer) throws -> HTTPResponse {
        let handle = challenges.requestHandle(of: record)
        // A challenge mailed to an address the account no longer has is dead (a change of email
        // ends what was sent to the old one); a change's own challenge went to the new address.
        guard let userID = record.userID, let user = try users.storage.users.user(id: userID),
              record.purpose == .changeEmail || user.email == record.email else {
            return deadChallenge(errors.page, handle: handle)
        }
        let sameBrowser = challenges.isSameBrowser(record, browserValue: browserValue)
        switch record.purpose {
        case .changeEmail:
            return try completeEmailChange(record, user: user, sameBrowser: sameBrowser, errors)
        case .verifyEmail:
            try markVerified(user)
            server.auditor.record("email_verified", subject: user.id)
            guard sameBrowser, user.disabledAt == nil, let handle else {
                return Self.notice(errors.page, EmailChallengeText.verifiedTitle, EmailChallengeText.verifiedBody)
            }
            return try continueSignedIn(user, amr: ["pwd"], way: .signUp, handle: handle, request,
                                        offeringPasskey: interactive.passkeyOfferWanted(request, form, user: user), errors)
        case .resetPassword:
            // The code came to the address: an unconfirmed account's earlier credentials go first.
            try claimByMailbox(user, proof: "password_reset")
            try users.setPassword(userID: user.id, password: password)
            server.auditor.record("password_reset", subject: user.id)
            let passkeys = try resetPasskeys(userID: user.id, remove: Self.removesPasskeys(form), page: errors.page)
            var body = "<p>\(errors.page.html(EmailChallengeText.resetDoneBody))</p>\n" + passkeys
            if let handle {
                let href = Routes.signIn + "?" + FormEncoding.encode([("request", handle)])
                body += "<p><a href=\"\(HTMLPage.escape(href))\">\(errors.page.html(EmailChallengeText.continueSignIn))</a></p>\n"
            }
            var response = HTMLPage.response(errors.page, title: errors.page.text(EmailChallengeText.resetDoneTitle), body: body)
            response.setCookie(interactive.clearedCookie(interactive.sessionCookieName))
            return response
        case .signIn:
            guard sameBrowser, user.disabledAt == nil, let handle else {
                return Self.notice(errors.page, EmailChallengeText.otherBrowserTitle, EmailChallengeText.otherBrowserBody, status: 403)
            }
            // A code mailed before the domain became `sso_required` no longer signs in (the gate's
            // rule, checked before the address is marked confirmed).
            if let realm = try interactive.flow.gate.realmRefusal(email: user.email, way: .emailCode, connectionID: nil) {
                return interactive.ssoRequiredRefusal(realm, email: user.email, handle: handle, browserValue: browserValue, way: "otp", errors)
            }
            let confirmed = try claimByMailbox(user, proof: way.rawValue)
            server.auditor.record("sign_in", subject: user.id, detail: ["method": .string("email")])
            return try continueSignedIn(confirmed, amr: ["otp"], way: way, handle: handle, request, errors)
        }
    }

    /// A proven new address becomes the account's, verified, with the notice to the old address
    /// in the same transaction (`UserStore.changeEmail`). Sessions and grants stay: the address is
    /// how the person is reached, not a credential, and the change needed the password (or a fresh
    /// sign-in) and the new mailbox (docs/accounts.md, "Changing the email address"). An address
    /// another account took in the meantime refuses the change; the race is only visible to
    /// someone who holds both that mailbox and this account.
    func completeEmailChange(_ record: EmailChallengeRecord, user: UserRecord, sameBrowser: Bool, _ errors: ErrorRenderer) throws -> HTTPResponse {
        let notice = try mailer.seal(.emailChanged(newAddressHint: AccountMail.addressHint(record.email)), to: user.email,
                                     language: errors.page.language)
        let changed: Bool
        do {
            changed = try users.changeEmail(userID: user.id, from: user.email, to: record.email, notice: notice)
        } catch StoreError.duplicate {
            return Self.notice(errors.page, EmailChangeText.takenTitle, EmailChangeText.takenBody, status: 409)
        } catch let refusal as EmailChangeRefusal {
            // A domain that became sso_required since the request.
            return Self.notice(errors.page, EmailChangeText.governedTitle, EmailChangeText(refusal), status: 403)
        }
        guard changed else { return deadChallenge(errors.page, handle: nil) }
        mailer.queue.notifySender()
        server.auditor.record("email_changed", subject: user.id)
        if sameBrowser { return AccountRoutes.back(.emailChanged) }
        let body = "<p>\(errors.page.html(EmailChangeText.doneBody, "<strong>\(HTMLPage.escape(record.email))</strong>"))</p>\n"
        return HTMLPage.response(errors.page, title: errors.page.text(EmailChangeText.doneTitle), body: body)
    }

    /// The mailbox proved the address: an unconfirmed account is claimed (`UnconfirmedAccountClaim`:
    /// what was made on it before the proof goes) and counts as confirmed.
    @discardableResult
    func claimByMailbox(_ user: UserRecord, proof: String) throws -> UserRecord {
        try UnconfirmedAccountClaim(server: server).claim(user, proof: proof)
    }

    func markVerified(_ user: UserRecord) throws {
        guard !user.emailVerified else { return }
        try users.storage.users.updateProfile(userID: user.id, name: user.name, givenName: user.givenName, familyName: user.familyName,
                                              emailVerified: true, now: server.clock.now)
    }

    /// The sign-in `user` just made through the gate (a new session, the browser's previous one
    /// ending, or the second factor first) and the pending request's next step.
    func continueSignedIn(_ user: UserRecord, amr: [String], way: SignInWay, handle: String, _ request: HTTPRequest,
                          offeringPasskey: Bool = false, _ errors: ErrorRenderer) throws -> HTTPResponse {
        let pending: PendingRequest
        do { pending = try interactive.flow.pending(handle: handle) } catch is FlowError {
            return Self.notice(errors.page, EmailChallengeText.verifiedTitle, EmailChallengeText.verifiedBody)
        }
        let current = try users.storage.users.user(id: user.id) ?? user
        return try interactive.signedIn(request, pending, SignInEvent(user: current, amr: amr, way: way), offeringPasskey: offeringPasskey, errors)
    }
}
