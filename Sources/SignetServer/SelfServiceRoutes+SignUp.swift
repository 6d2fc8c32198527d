import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetStore
import SignetWire

extension SelfServiceRoutes {
    /// The CSRF purpose of the sign-up form.
    static func signUpPurpose(_ handle: String?) -> String { "signup:" + (handle ?? "") }

    /// `GET /signup[?request=…]`: email, password, optional name.
    func signUpPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard accounts.signUp != .off else { return Self.notice(errors.page, SignUpText.offTitle, SignUpText.offBody, status: 404) }
        let handle = request.query.first("request")
        switch pendingOrError(handle, errors) {
        case .failure(let error): return error.response
        case .success(let pending):
            let browser = interactive.browserValue(request)
            return Self.withCookie(signUpForm(errors.page, handle: handle, pending: pending, browserValue: browser.value, email: "", name: "",
                                              password: "", visible: false, error: nil, status: 200), browser.cookie)
        }
    }

    func signUpForm(_ context: PageContext, handle: String?, pending: PendingRequest?, browserValue: String, email: String, name: String, password: String,
                    visible: Bool, error: String?, status: Int) -> HTTPResponse {
        var body = ""
        if let pending { body += "<p>\(context.html(SignUpText.intro, "<strong>\(HTMLPage.escape(pending.client.name))</strong>"))</p>\n" }
        if let error { body += Self.errorParagraph(error) }
        body += formStart(action: Routes.signUp, handle: handle, browserValue: browserValue, purpose: Self.signUpPurpose(handle),
                          emailLabel: context.text(SignUpText.email), email: email, autocomplete: "email")
        body += Self.passwordField(label: context.text(SignUpText.password), value: password, visible: visible,
                                   hint: context.text(SignUpText.passwordHint), page: context)
        body += "<label for=\"name\">\(context.html(SignUpText.name))</label>\n"
        body += "<input id=\"name\" name=\"name\" type=\"text\" autocomplete=\"name\" maxlength=\"\(Self.maximumNameLength)\" value=\"\(HTMLPage.escape(name))\">\n"
        body += "<button type=\"submit\" name=\"action\" value=\"create\">\(context.html(SignUpText.submit))</button>\n</form>\n"
        body += Self.backToSignIn(handle, lead: context.html(SignUpText.haveAccount) + " ", label: context.text(SignUpText.signIn))
        return HTMLPage.response(context, title: context.text(SignUpText.title), body: body, status: status)
    }

    /// `POST /signup` (on a blocking-work thread: Argon2id). A new address gets an unverified
    /// account and a verification code; an address with an account gets the "you already have
    /// an account" mail and a challenge that can never be answered. Both hash the password once,
    /// store one challenge, one mail and one audit event in one transaction, and answer the same
    /// 303 to the code page.
    func signUpSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard accounts.signUp != .off else { return Self.notice(errors.page, SignUpText.offTitle, SignUpText.offBody, status: 404) }
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        let handle = (try? form.single("request")).flatMap { $0.isEmpty ? nil : $0 }
        guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: Self.signUpPurpose(handle)) else {
            return errors.csrfFailure()
        }
        let pending: PendingRequest?
        switch pendingOrError(handle, errors) {
        case .failure(let error): return error.response
        case .success(let found): pending = found
        }
        let browserValue = request.cookies[interactive.csrfCookieName] ?? ""
        let rawEmail = (try? form.single("email")) ?? ""
        let rawName = (try? form.single("name")) ?? ""
        let password = (try? form.single("password")) ?? ""
        func again(_ error: String?, visible: Bool = false, status: Int = 400) -> HTTPResponse {
            signUpForm(errors.page, handle: handle, pending: pending, browserValue: browserValue, email: String(rawEmail.prefix(EmailAddress.maximumBytes)),
                       name: String(rawName.prefix(Self.maximumNameLength)),
                       password: password.utf8.count <= UserService.maximumPasswordBytes ? password : "",
                       visible: visible, error: error, status: status)
        }
        if let visible = Self.toggle(form) { return again(nil, visible: visible, status: 200) }
        let email: String
        do { email = try EmailAddress.normalize(rawEmail) } catch { return again(ValidationText.message(error, errors.page)) }
        // An `sso_required` domain's accounts are made by their first SSO sign-in, never here.
        do {
            if let realm = try interactive.flow.gate.realmRefusal(email: email, way: .signUp, connectionID: nil) {
                return interactive.ssoRequiredRefusal(realm, email: email, handle: handle, browserValue: request.cookies[interactive.csrfCookieName],
                                                      way: "signup", errors)
            }
        } catch {
            return errors.internalError("sign-up", error)
        }
        guard accounts.allowsSignUp(email: email) else {
            return again(errors.page.text(SignUpText.domainRefused, accounts.signUpDomains.joined(separator: ", ")))
        }
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= Self.maximumNameLength, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return again(errors.page.text(SignUpText.nameTooLong))
        }
        do { try UserService.checkNewPassword(password) } catch { return again(ValidationText.message(error, errors.page)) }
        do {
            guard try challenges.admit(purpose: .verifyEmail, email: email, clientAddress: request.clientKey) else { return Self.throttled(errors.page) }
            // Both paths do the same work: one lookup, one Argon2id hash with the configured cost
            // (the known path discards its record), and ONE transaction holding the challenge, its
            // mail and an audit event (and, for a new address, the user row), so neither the
            // answer nor the number of commits tells an address with an account from one without.
            var existing = try users.storage.users.user(email: email)
            let user = try users.newUser(email: email, name: name.isEmpty ? nil : name, password: password)
            let language = errors.page.language
            if existing == nil {
                do {
                    let id = try mailer.send(.verifyEmail, to: email, userID: user.id, browserValue: browserValue, requestHandle: handle,
                                             signUpOpen: true, language: language, newUser: user,
                                             audit: server.auditor.event("sign_up", subject: user.id))
                    server.auditor.observer?("sign_up")
                    return Self.toCodePage(id)
                } catch StoreError.duplicate {
                    // Taken by a racing sign-up (nothing was stored): its owner gets the "already" mail.
                    existing = try users.storage.users.user(email: email)
                }
            }
            // Only the trail says the address was known (subject: the existing account); the
            // requester sees the same 303 and the owner gets the "you already have an account" mail.
            let id = try mailer.send(.verifyEmail, to: email, userID: nil, browserValue: browserValue, requestHandle: handle,
                                     signUpOpen: true, language: language,
                                     audit: server.auditor.event("sign_up_existing", subject: existing?.id))
            server.auditor.observer?("sign_up_existing")
            return Self.toCodePage(id)
        } catch {
            return errors.internalError("sign-up", error)
        }
    }

    var server: AuthorizationServer { interactive.server }

    /// A message from SignetCore as a sentence: capitalised, with a full stop.
    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        return first.uppercased() + message.dropFirst() + (message.hasSuffix(".") ? "" : ".")
    }

    /// The pending request a page names, or the "request gone" page.
    func pendingOrError(_ handle: String?, _ errors: ErrorRenderer) -> Result<PendingRequest?, ResponseError> {
        do {
            switch try pendingRequest(handle) {
            case .success(let pending): return .success(pending)
            case .failure: return .failure(ResponseError(errors.requestGone()))
            }
        } catch {
            return .failure(ResponseError(errors.internalError("pending request", error)))
        }
    }
}

/// A response carried as an error, so a lookup can return either its value or the page to show.
struct ResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

extension InteractiveRoutes {
    /// `accounts.require_verified_email` and the right password for an unconfirmed address: no
    /// session; a new verification code (throttled like every code) and its page, which signs the
    /// user in once the code is entered here. Only someone who knows the password sees this, so
    /// it is not the generic failure message.
    func verificationRequired(_ user: UserRecord, _ request: HTTPRequest, handle: String, _ errors: ErrorRenderer) -> HTTPResponse {
        do {
            guard try mailer.challenges.admit(purpose: .verifyEmail, email: user.email, clientAddress: request.clientKey) else {
                return SelfServiceRoutes.throttled(errors.page)
            }
            let id = try mailer.send(.verifyEmail, to: user.email, userID: user.id, browserValue: request.cookies[csrfCookieName],
                                     requestHandle: handle, signUpOpen: false, language: errors.page.language)
            server.auditor.record("sign_in_unverified", subject: user.id)
            return SelfServiceRoutes.toCodePage(id)
        } catch {
            return Self.local(Routes.signIn, [("request", handle), ("error", "1")])
        }
    }
}
