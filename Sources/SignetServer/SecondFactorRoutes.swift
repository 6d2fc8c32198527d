import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetQR
import SignetStore
import SignetWire

/// The second-factor pages of a sign-in: the code step (TOTP or recovery code), setting up an
/// authenticator app when the request needs one, and going on after the recovery codes; and the
/// signed-in user's own page (`SecondFactorRoutes+Account.swift`).
///
/// The QR code is inline `<svg>` in the page (SignetQR, libqrencode): part of the document, not
/// a fetched image, so the pages' CSP (`default-src 'none'`) stays as it is.
struct SecondFactorRoutes: Sendable {
    let interactive: InteractiveRoutes
    let service: SecondFactorService
    /// The `issuer` label of the otpauth URI: the issuer's host (and port).
    let label: String

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        self.service = SecondFactorService(server: application.authorizationServer,
                                           key: application.environment.masterKey.secondFactorKey)
        self.label = URLComponents(string: application.issuer).map { components in
            (components.host ?? "Signet") + (components.port.map { ":\($0)" } ?? "")
        } ?? "Signet"
    }

    var flow: AuthorizationFlow { interactive.flow }

    // MARK: the code step

    /// `GET /signin/second-factor?challenge=…[&error=1]`.
    func codePage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let handle = request.query.first("challenge"),
              let challenge = try? flow.challenge(handle: handle, browser: interactive.sessionBrowser(request)) else {
            return errors.requestGone()
        }
        if challenge.enrol { return InteractiveRoutes.local(Routes.secondFactorSetup, [("challenge", handle)]) }
        let browser = interactive.browserValue(request)
        var body = "<p>\(HTMLPage.escape(errors.page.text(SecondFactorText.codeIntro)))</p>\n"
        if let error = request.query.first("error") {
            let text = error == "locked" ? SecondFactorText.codeLocked : SecondFactorText.codeWrong
            body += "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(errors.page.text(text)))</p>\n"
        }
        body += "<form method=\"post\" action=\"\(Routes.secondFactor)\">\n"
        body += HTMLPage.hidden("challenge", handle) + "\n"
        body += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
        body += Self.codeField(errors.page.text(SecondFactorText.codeLabel))
        body += "<button type=\"submit\">\(HTMLPage.escape(errors.page.text(SecondFactorText.verifyButton)))</button>\n</form>\n"
        body += "<p class=\"muted\">\(HTMLPage.escape(errors.page.text(SecondFactorText.codeRecoveryHint)))</p>\n"
        return HTMLPage.response(errors.page, title: errors.page.text(SecondFactorText.codeTitle), body: body, formLeadsToClient: true, cookie: browser.cookie)
    }

    /// `POST /signin/second-factor`: the code, checked under the account's attempt limit; a right
    /// one starts the session (`amr` + `otp`, `mfa`) and goes on to consent or the client.
    func codeSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        checkedPost(request, errors, handleField: "challenge", context: "second factor") { form, handle in
            let (challenge, user) = try challenge(handle, enrol: false, request)
            switch try verify(user, code: (try? form.single("code")) ?? "", language: errors.page.language) {
            case .throttled:
                return throttled(errors)
            case .refused:
                return InteractiveRoutes.local(Routes.secondFactor, [("challenge", handle), ("error", "1")])
            case .locked:
                return InteractiveRoutes.local(Routes.secondFactor, [("challenge", handle), ("error", "locked")])
            case .totp, .recoveryCode:
                let passed = try flow.secondFactorPassed(challenge, previousSessionToken: interactive.sessionToken(request), proceed: true)
                guard let step = passed.step else { return errors.requestGone() }
                var response = interactive.respond(step, errors)
                if let token = passed.token { response.setCookie(interactive.sessionCookie(token)) }
                return response
            }
        }
    }

    /// `service.verify`, and the owner's mail when this wrong code locked the factor.
    func verify(_ user: UserRecord, code: String, language: PageLanguage) throws -> SecondFactorService.Outcome {
        let outcome = try service.verify(userID: user.id, code: code)
        if case .locked(justNow: true) = outcome {
            try interactive.mailer.notify(.totpLocked(failures: service.lockAfter), to: user.email, language: language)
        }
        return outcome
    }

    // MARK: setting up during a sign-in

    /// `GET /signin/second-factor/setup?challenge=…[&error=1]`: the QR code, the key, a first code.
    func setupPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let handle = request.query.first("challenge"),
              let challenge = try? flow.challenge(handle: handle, browser: interactive.sessionBrowser(request)) else {
            return errors.requestGone()
        }
        guard challenge.enrol else { return InteractiveRoutes.local(Routes.secondFactor, [("challenge", handle)]) }
        return errors.continuing("second factor setup") {
            let user = try flow.challengeUser(challenge)
            guard let totp = try service.enrolment(userID: user.id) else {
                return errors.render(.invalidRequest(errors.page.text(SecondFactorText.alreadySetUp)), title: errors.page.text(SecondFactorText.setupTitle))
            }
            let browser = interactive.browserValue(request)
            var body = "<p>\(HTMLPage.escape(errors.page.text(SecondFactorText.setupRequired)))</p>\n"
            body += enrolmentForm(totp: totp, account: user.email, action: Routes.secondFactorSetup, failed: request.query.first("error") != nil,
                                  hidden: [("challenge", handle),
                                           ("csrf", interactive.csrf.token(browserValue: browser.value, purpose: handle))], page: errors.page)
            return HTMLPage.response(errors.page, title: errors.page.text(SecondFactorText.setupTitle), body: body, formLeadsToClient: true, cookie: browser.cookie)
        }
    }

    /// `POST /signin/second-factor/setup`: confirms with the first code, starts the session, and
    /// shows the recovery codes once, with a Continue button on to the client.
    func setupSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        checkedPost(request, errors, handleField: "challenge", context: "second factor setup") { form, handle in
            let (challenge, user) = try challenge(handle, enrol: true, request)
            switch try service.confirm(userID: user.id, code: (try? form.single("code")) ?? "") {
            case .failure(.throttled):
                return throttled(errors)
            case .failure(.refused):
                return InteractiveRoutes.local(Routes.secondFactorSetup, [("challenge", handle), ("error", "1")])
            case .success(let codes):
                let passed = try flow.secondFactorPassed(challenge, previousSessionToken: interactive.sessionToken(request), proceed: false)
                guard let token = passed.token else { return interactive.respond(passed.step ?? .signIn(requestHandle: challenge.requestHandle), errors) }
                let browser = interactive.browserValue(request)
                var body = recoveryCodesBlock(codes, page: errors.page)
                body += "<form method=\"post\" action=\"\(Routes.signInContinue)\">\n"
                body += HTMLPage.hidden("request", challenge.requestHandle) + "\n"
                body += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: browser.value, purpose: challenge.requestHandle)) + "\n"
                body += "<button type=\"submit\">\(HTMLPage.escape(errors.page.text(SecondFactorText.continueButton)))</button>\n</form>\n"
                var response = HTMLPage.response(errors.page, title: errors.page.text(SecondFactorText.recoveryTitle), body: body, formLeadsToClient: true)
                response.setCookie(interactive.sessionCookie(token))
                if let cookie = browser.cookie { response.setCookie(cookie) }
                return response
            }
        }
    }

    /// `POST /signin/continue`: on with the pending request once the recovery codes were seen.
    func continueSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        checkedPost(request, errors, handleField: "request", context: "sign-in continue") { _, handle in
            let pending = try flow.pending(handle: handle)
            let session = try flow.sessions.active(token: interactive.sessionToken(request))
            return interactive.respond(try flow.resume(pending, session: session), errors)
        }
    }

    /// A form POST of these pages: the form, its handle field and the CSRF value bound to it
    /// checked first; an unknown, used or expired handle is the "request gone" page.
    private func checkedPost(_ request: HTTPRequest, _ errors: ErrorRenderer, handleField: String, context: String,
                             _ body: (RequestParameters, String) throws -> HTTPResponse) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), let handle = try? form.single(handleField) else {
            return errors.malformedForm()
        }
        guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        return errors.continuing(context) { try body(form, handle) }
    }

    /// The challenge a handle names for this browser and its user; `requestNotFound` when it is
    /// of the other kind or another browser's.
    private func challenge(_ handle: String, enrol: Bool, _ request: HTTPRequest) throws -> (SecondFactorChallenge, UserRecord) {
        let challenge = try flow.challenge(handle: handle, browser: interactive.sessionBrowser(request))
        guard challenge.enrol == enrol else { throw FlowError.requestNotFound }
        return (challenge, try flow.challengeUser(challenge))
    }

    // MARK: shared parts

    /// 429 with `Retry-After` (the attempt window): the code was not checked.
    func throttled(_ errors: ErrorRenderer) -> HTTPResponse {
        errors.render(OAuthError(.temporarilyUnavailable, errors.page.text(SecondFactorText.throttled)), status: 429, title: errors.page.text(SecondFactorText.throttledTitle),
                      retryAfter: interactive.server.policy.secondFactorAttemptWindow)
    }

    static func codeField(_ label: String) -> String {
        "<label for=\"code\">\(HTMLPage.escape(label))</label>\n"
            + "<input id=\"code\" name=\"code\" type=\"text\" autocomplete=\"one-time-code\" autocapitalize=\"characters\" spellcheck=\"false\" required autofocus>\n"
    }

    /// The QR code (inline SVG of the otpauth URI), the key in groups of four, and the form for
    /// the first code.
    func enrolmentForm(totp: TOTP, account: String, action: String, failed: Bool, hidden: [(String, String)], page: PageContext) -> String {
        let uri = totp.provisioningURI(issuer: label, account: account)
        var body = "<p>\(HTMLPage.escape(page.text(SecondFactorText.setupScan)))</p>\n"
        if let qr = QRCode(uri) {
            body += "<div class=\"qr\">\(qr.svg(title: page.text(SecondFactorText.qrTitle)))</div>\n"
        }
        let key = Base32.encode(totp.secret)
        let grouped = stride(from: 0, to: key.count, by: 4).map { start -> String in
            let from = key.index(key.startIndex, offsetBy: start)
            return String(key[from..<(key.index(from, offsetBy: 4, limitedBy: key.endIndex) ?? key.endIndex)])
        }.joined(separator: " ")
        body += "<p class=\"muted\">\(HTMLPage.escape(page.text(SecondFactorText.setupKey)))</p>\n"
        body += "<p><code id=\"totp-secret\">\(HTMLPage.escape(grouped))</code></p>\n"
        if failed { body += "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(page.text(SecondFactorText.codeWrong)))</p>\n" }
        body += "<form method=\"post\" action=\"\(action)\">\n"
        for (name, value) in hidden { body += HTMLPage.hidden(name, value) + "\n" }
        body += Self.codeField(page.text(SecondFactorText.setupConfirmLabel))
        body += "<button type=\"submit\">\(HTMLPage.escape(page.text(SecondFactorText.setupButton)))</button>\n</form>\n"
        return body
    }

    /// The recovery codes, shown once.
    func recoveryCodesBlock(_ codes: [String], page: PageContext) -> String {
        var body = "<p>\(HTMLPage.escape(page.text(SecondFactorText.recoveryIntro)))</p>\n<ul id=\"recovery-codes\">\n"
        for code in codes { body += "<li><code>\(HTMLPage.escape(code))</code></li>\n" }
        return body + "</ul>\n"
    }
}
