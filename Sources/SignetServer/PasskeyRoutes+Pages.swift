import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetStore
import SignetWire

extension InteractiveRoutes {
    /// The cookie that holds back the passkey offer after "Not now".
    var passkeyLaterCookieName: String { SetCookie.hostPrefixed("signet_passkey_later", secure: secure) }
    /// How long "Not now" holds the offer back in this browser: 30 days, so a user who declined
    /// is asked again about once a month, and never once the account has a passkey.
    static let passkeyOfferPause = 30 * 24 * 3600

    /// The sign-in page's passkey part: the button (shown by the script when the browser can use
    /// passkeys) and the data the script reads; the email field's `autocomplete="username
    /// webauthn"` offers passkeys in its autofill (conditional mediation).
    func passkeySignInSection(handle: String, browserValue: String, page: PageContext) -> String {
        PasskeyRoutes.box(mode: "signin", options: Routes.passkeySignInOptions, finish: Routes.passkeySignInFinish,
                          csrf: csrf.token(browserValue: browserValue, purpose: handle), request: handle,
                          button: .signInButton, page: page)
    }

    /// After a password sign-in: the offer page, only for a browser whose script reported a
    /// platform authenticator with user verification (`passkey_capable`, so a browser without
    /// JavaScript or passkeys never sees it), unless the account has a passkey or this browser
    /// said "Not now" recently.
    func passkeyOfferWanted(_ request: HTTPRequest, _ form: RequestParameters, user: UserRecord) throws -> Bool {
        guard (try? form.single("passkey_capable")) == "1", request.cookies[passkeyLaterCookieName] == nil else { return false }
        return try server.storage.passkeys.passkeys(userID: user.id).isEmpty
    }
}

extension PasskeyRoutes {
    /// For the form that ends a sign-up (the email code or link): the script only marks the form
    /// `passkey_capable` when the browser has a user-verifying platform authenticator, so the
    /// offer follows as after a password sign-in. The page must `PasskeyScript.allow` it.
    static func capabilityBox(form: String) -> String {
        "<div id=\"passkeys\" data-mode=\"capable\" data-form=\"\(HTMLPage.escape(form))\" hidden></div>\n" + PasskeyScript.tag + "\n"
    }

    /// The element the script reads: its mode, endpoints, CSRF token, request and strings.
    static func box(mode: String, options: String, finish: String, csrf: String, request: String?, button: PasskeyText,
                    next: String? = nil, page: PageContext) -> String {
        var attributes: [(String, String)] = [
            ("data-mode", mode), ("data-options", options), ("data-finish", finish), ("data-csrf", csrf),
            ("data-failed", page.text(PasskeyText.failed)), ("data-cancelled", page.text(PasskeyText.cancelled)),
            ("data-working", page.text(PasskeyText.working)), ("data-done", page.text(PasskeyText.offerAdded))]
        if let request { attributes.append(("data-request", request)) }
        if let next { attributes.append(("data-next", next)) }
        var html = "<div id=\"passkeys\"" + attributes.map { " \($0.0)=\"\(HTMLPage.escape($0.1))\"" }.joined() + ">\n"
        html += "<button type=\"button\" id=\"passkey-button\" hidden>\(page.html(button))</button>\n"
        html += "<p id=\"passkey-status\" role=\"status\" hidden></p>\n</div>\n"
        html += PasskeyScript.tag + "\n"
        return html
    }

    // MARK: the offer after a password sign-in

    /// `GET /passkeys/offer?request=…`: "Add a passkey?" with Add (script) and Not now.
    func offerPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let handle = request.query.first("request") else { return errors.requestGone() }
        return errors.continuing("passkey offer") {
            _ = try interactive.flow.pending(handle: handle)
            guard let session = try session(request) else { return InteractiveRoutes.local(Routes.signIn, [("request", handle)]) }
            let browser = interactive.browserValue(request)
            var body = "<p>\(HTMLPage.escape(errors.page.text(PasskeyText.offerIntro)))</p>\n"
            body += Self.box(mode: "register", options: Routes.passkeyRegisterOptions, finish: Routes.passkeyRegisterFinish,
                             csrf: interactive.csrf.token(browserValue: browser.value, purpose: Self.purpose(session)), request: nil,
                             button: .offerAdd, next: "passkey-continue", page: errors.page)
            body += "<form id=\"passkey-continue\" method=\"post\" action=\"\(Routes.passkeyOffer)\">\n"
            body += HTMLPage.hidden("request", handle) + "\n"
            body += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
            body += "<button type=\"submit\" name=\"skip\" value=\"1\" class=\"secondary\">\(HTMLPage.escape(errors.page.text(PasskeyText.offerSkip)))</button>\n"
            body += "</form>\n"
            var response = HTMLPage.response(errors.page, title: errors.page.text(PasskeyText.offerTitle), body: body, formLeadsToClient: true, cookie: browser.cookie)
            PasskeyScript.allow(&response)
            return response
        }
    }

    /// `POST /passkeys/offer`: continues the pending request with the session that signed in for
    /// it (`AuthorizationFlow.resume`: signed in after the request came, and through the gate
    /// again), else back to the sign-in page; `skip` also holds the offer back in this browser for
    /// `passkeyOfferPause`.
    func offerSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), let handle = try? form.single("request") else { return errors.malformedForm() }
        guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        return errors.continuing("passkey offer") {
            let pending = try interactive.flow.pending(handle: handle)
            guard let session = try session(request) else { return InteractiveRoutes.local(Routes.signIn, [("request", handle)]) }
            var response = interactive.respond(try interactive.flow.resume(pending, session: session), errors)
            if (try? form.single("skip")) != nil {
                response.setCookie(SetCookie(name: interactive.passkeyLaterCookieName, value: "1", path: "/",
                                             maxAge: InteractiveRoutes.passkeyOfferPause, secure: interactive.secure, httpOnly: true,
                                             sameSite: .lax))
            }
            return response
        }
    }

    // MARK: /account/passkeys

    /// `GET /account/passkeys`: the signed-in user's passkeys, each with Rename and Remove, and Add
    /// (only after a fresh sign-in at the account's level, `FreshSignIn`; otherwise the way to one).
    func accountPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        do {
            guard let session = try session(request) else { return signedOut(errors) }
            let browser = interactive.browserValue(request)
            let csrf = interactive.csrf.token(browserValue: browser.value, purpose: Self.purpose(session))
            let passkeys = try ceremonies.store.passkeys(userID: session.user.id)
            var body = "<p>\(HTMLPage.escape(errors.page.text(PasskeyText.manageIntro)))</p>\n"
            body += "<p class=\"muted\">\(HTMLPage.escape(session.user.email))</p>\n"
            if passkeys.isEmpty { body += "<p>\(HTMLPage.escape(errors.page.text(PasskeyText.manageNone)))</p>\n" }
            for passkey in passkeys { body += Self.row(passkey, csrf: csrf, page: errors.page) }
            if try FreshSignIn(server: interactive.server).verdict(session) == .fresh {
                body += Self.box(mode: "register", options: Routes.passkeyRegisterOptions, finish: Routes.passkeyRegisterFinish, csrf: csrf,
                                 request: nil, button: .manageAdd, page: errors.page)
                body += "<noscript><p class=\"muted\">\(HTMLPage.escape(errors.page.text(PasskeyText.manageAddNeedsScript)))</p></noscript>\n"
            } else {
                // The same re-authentication as the account page's actions (`prompt=login`), back to this page.
                let minutes = String(Int(FreshSignIn.maximumAge / 60))
                body += "<p class=\"muted\" id=\"passkey-reauth\">\(HTMLPage.escape(errors.page.text(PasskeyText.manageAddNeedsFreshSignIn, minutes)))</p>\n"
                body += "<p><a href=\"\(Routes.accountReauth)?next=\(AccountReturn.passkeys.rawValue)\">\(HTMLPage.escape(errors.page.text(PasskeyText.manageReauth)))</a></p>\n"
            }
            var response = HTMLPage.response(errors.page, title: errors.page.text(PasskeyText.manageTitle), body: body, cookie: browser.cookie)
            PasskeyScript.allow(&response)
            return response
        } catch {
            return errors.internalError("passkeys page", error)
        }
    }

    static func row(_ passkey: PasskeyRecord, csrf: String, page: PageContext) -> String {
        let id = Base64URL.encode(passkey.id)
        let kind = page.text(passkey.backupEligible ? PasskeyText.manageSynced : PasskeyText.manageDeviceBound)
        let used = passkey.lastUsedAt.map(day) ?? page.text(PasskeyText.manageNeverUsed)
        var html = "<section class=\"passkey\">\n<h2>\(HTMLPage.escape(passkey.name))</h2>\n"
        html += "<p class=\"muted\">\(HTMLPage.escape(kind)) · \(HTMLPage.escape(page.text(PasskeyText.manageCreated))) \(day(passkey.createdAt)) · "
        html += "\(HTMLPage.escape(page.text(PasskeyText.manageLastUsed))) \(HTMLPage.escape(used))</p>\n"
        if passkey.flaggedAt != nil { html += "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(page.text(PasskeyText.manageFlagged)))</p>\n" }
        html += "<form method=\"post\" action=\"\(Routes.accountPasskeysRename)\">\n"
        html += HTMLPage.hidden("csrf", csrf) + HTMLPage.hidden("id", id) + "\n"
        html += "<label for=\"name-\(id)\">\(HTMLPage.escape(page.text(PasskeyText.manageName)))</label>\n"
        html += "<input id=\"name-\(id)\" name=\"name\" type=\"text\" maxlength=\"\(PasskeyCeremonies.maximumNameLength)\" required value=\"\(HTMLPage.escape(passkey.name))\">\n"
        html += "<button type=\"submit\">\(HTMLPage.escape(page.text(PasskeyText.manageRename)))</button>\n</form>\n"
        html += "<form method=\"post\" action=\"\(Routes.accountPasskeysRemove)\">\n"
        html += HTMLPage.hidden("csrf", csrf) + HTMLPage.hidden("id", id) + "\n"
        html += "<button type=\"submit\" class=\"secondary\">\(HTMLPage.escape(page.text(PasskeyText.manageRemove)))</button>\n</form>\n</section>\n"
        return html
    }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    func signedOut(_ errors: ErrorRenderer) -> HTTPResponse {
        errors.render(OAuthError(.loginRequired, errors.page.text(PasskeyText.signedOut)), status: 401, title: errors.page.text(PasskeyText.signedOutTitle))
    }

    /// `POST /account/passkeys/rename` and `/remove`: CSRF, the session's own passkey, back to the list.
    func accountChange(_ request: HTTPRequest, _ errors: ErrorRenderer, remove: Bool) -> HTTPResponse {
        do {
            guard let session = try session(request) else { return signedOut(errors) }
            guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
            guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: Self.purpose(session)) else {
                return errors.csrfFailure()
            }
            guard let text = try? form.single("id"), let id = Base64URL.decode(text), !id.isEmpty else { return errors.malformedForm() }
            let changed: Bool
            if remove {
                changed = try ceremonies.store.deletePasskey(id: id, userID: session.user.id)
                if changed { interactive.server.auditor.record("passkey_removed", subject: session.user.id) }
            } else {
                guard let name = try? form.single("name") else { return errors.malformedForm() }
                changed = try ceremonies.store.renamePasskey(id: id, userID: session.user.id,
                                                             name: PasskeyCeremonies.cleanName(name, fallback: errors.page.text(PasskeyText.defaultNameSynced)))
            }
            guard changed else { return errors.render(OAuthError(.invalidRequest, errors.page.text(PasskeyText.notFound)), status: 404, title: errors.page.text(PasskeyText.manageTitle)) }
            return InteractiveRoutes.local(Routes.accountPasskeys)
        } catch {
            return errors.internalError("passkeys page", error)
        }
    }
}
