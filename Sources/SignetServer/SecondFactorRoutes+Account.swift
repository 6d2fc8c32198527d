import SignetCore
import SignetHTTP
import SignetWire

extension SecondFactorRoutes {
    /// The CSRF purpose of the account page's forms: bound to the session as well as the browser.
    func accountPurpose(_ session: ActiveSession) -> String { "account-totp:" + session.publicID }

    /// `GET /account/security/totp`: set up (QR code, key, first code) when the user has no
    /// factor; otherwise its state, new recovery codes and removal, both behind re-authentication.
    func accountPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        do {
            guard let session = try flow.sessions.active(token: interactive.sessionToken(request)) else { return signInRequired(errors) }
            return try accountPage(request, errors, session: session, notice: request.query.first("removed") != nil ? errors.page.text(SecondFactorText.removed) : nil,
                                   failed: request.query.first("error"))
        } catch {
            return errors.internalError("account totp", error)
        }
    }

    private func accountPage(_ request: HTTPRequest, _ errors: ErrorRenderer, session: ActiveSession, notice: String?, failed: String?) throws -> HTTPResponse {
        let browser = interactive.browserValue(request)
        let csrf = interactive.csrf.token(browserValue: browser.value, purpose: accountPurpose(session))
        var body = ""
        if let notice { body += "<p role=\"status\">\(HTMLPage.escape(notice))</p>\n" }
        let userID = session.user.id
        if try service.hasFactor(userID: userID) {
            body += "<p>\(HTMLPage.escape(errors.page.text(SecondFactorText.accountOn)))</p>\n"
            body += "<p class=\"muted\">\(HTMLPage.escape(errors.page.text(SecondFactorText.accountRecoveryLeft, String(try service.unusedRecoveryCodes(userID: userID)))))</p>\n"
            if failed == "reauth" { body += "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(errors.page.text(SecondFactorText.reauthFailed)))</p>\n" }
            body += "<p>\(HTMLPage.escape(errors.page.text(SecondFactorText.accountReauth)))</p>\n"
            body += "<form method=\"post\" action=\"\(Routes.accountTOTP)\">\n" + HTMLPage.hidden("csrf", csrf) + "\n"
            if session.user.passwordHash != nil {
                body += "<label for=\"password\">\(HTMLPage.escape(errors.page.text(SecondFactorText.passwordLabel)))</label>\n"
                body += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required>\n"
            }
            body += Self.codeField(errors.page.text(SecondFactorText.codeLabel))
            body += "<button type=\"submit\" name=\"action\" value=\"recovery-codes\" class=\"secondary\">\(HTMLPage.escape(errors.page.text(SecondFactorText.newCodesButton)))</button>\n"
            body += "<button type=\"submit\" name=\"action\" value=\"remove\">\(HTMLPage.escape(errors.page.text(SecondFactorText.removeButton)))</button>\n</form>\n"
        } else if let totp = try service.enrolment(userID: userID) {
            body += enrolmentForm(totp: totp, account: session.user.email, action: Routes.accountTOTP, failed: failed == "code",
                                  hidden: [("csrf", csrf), ("action", "confirm")], page: errors.page)
        }
        return HTMLPage.response(errors.page, title: errors.page.text(SecondFactorText.accountTitle), body: body, cookie: browser.cookie)
    }

    /// `POST /account/security/totp`: `action=confirm` (the first code; shows the recovery codes
    /// once), `recovery-codes` and `remove` (each after the password, when the account has one,
    /// and a current code: someone at an unlocked browser cannot turn the factor off alone).
    /// Runs on a blocking-work thread (Argon2id).
    func accountSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        do {
            guard let session = try flow.sessions.active(token: interactive.sessionToken(request)) else { return signInRequired(errors) }
            guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: accountPurpose(session)) else {
                return errors.csrfFailure()
            }
            let userID = session.user.id
            let code = (try? form.single("code")) ?? ""
            switch try? form.single("action") {
            case "confirm":
                switch try service.confirm(userID: userID, code: code) {
                case .failure(.throttled): return throttled(errors)
                case .failure(.refused): return InteractiveRoutes.local(Routes.accountTOTP, [("error", "code")])
                case .success(let codes): return recoveryCodesPage(codes, errors)
                }
            case "recovery-codes", "remove":
                let action = try? form.single("action")
                if session.user.passwordHash != nil {
                    guard try interactive.signIn.signIn(email: session.user.email, password: (try? form.single("password")) ?? "",
                                                        clientAddress: request.clientKey)?.id == userID else {
                        return InteractiveRoutes.local(Routes.accountTOTP, [("error", "reauth")])
                    }
                }
                switch try verify(session.user, code: code, language: errors.page.language) {
                case .throttled: return throttled(errors)
                case .refused, .locked: return InteractiveRoutes.local(Routes.accountTOTP, [("error", "reauth")])
                case .totp, .recoveryCode: break
                }
                if action == "remove" {
                    try service.remove(userID: userID)
                    return InteractiveRoutes.local(Routes.accountTOTP, [("removed", "1")])
                }
                guard let codes = try service.regenerateRecoveryCodes(userID: userID) else {
                    return InteractiveRoutes.local(Routes.accountTOTP)
                }
                return recoveryCodesPage(codes, errors)
            default:
                return errors.render(.invalidRequest("Unknown action."))
            }
        } catch {
            return errors.internalError("account totp", error)
        }
    }

    private func recoveryCodesPage(_ codes: [String], _ errors: ErrorRenderer) -> HTTPResponse {
        let body = recoveryCodesBlock(codes, page: errors.page)
            + "<p><a href=\"\(Routes.accountTOTP)\">\(HTMLPage.escape(errors.page.text(SecondFactorText.backToAccount)))</a></p>\n"
        return HTMLPage.response(errors.page, title: errors.page.text(SecondFactorText.recoveryTitle), body: body)
    }

    private func signInRequired(_ errors: ErrorRenderer) -> HTTPResponse {
        errors.render(OAuthError(.loginRequired, errors.page.text(SecondFactorText.signInRequired)), status: 401, title: errors.page.text(SecondFactorText.signInRequiredTitle))
    }
}
