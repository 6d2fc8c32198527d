import Foundation
import SignetCore
import SignetHTTP
import SignetMail
import SignetStore
import SignetWire

extension SelfServiceRoutes {
    /// The two pages that only ask for an address and mail it a code: "forgot password" and
    /// email sign-in. Their answer is the same 303 to the code page whether or not the address
    /// has an account (the mail differs: a code, or "no account uses this address").
    struct AddressForm {
        let path: String
        let purpose: EmailChallengePurpose
        /// The page's strings.
        let text: any AddressPageText.Type
    }

    static let recoveryForm = AddressForm(path: Routes.passwordForgot, purpose: .resetPassword, text: RecoveryText.self)
    static let emailSignInForm = AddressForm(path: Routes.emailSignIn, purpose: .signIn, text: EmailSignInText.self)

    /// Whether the page is offered at all: only with mail, and email sign-in only when switched on
    /// for the client of the sign-in (`accounts.email_sign_in`, or the client's own `email_sign_in`).
    func isOffered(_ page: AddressForm, for pending: PendingRequest?) -> Bool {
        guard mailer.isMailConfigured else { return false }
        guard page.purpose == .signIn else { return true }
        return pending.map { accounts.emailSignIn(for: $0.client) } ?? false
    }

    /// `GET /password/forgot` and `GET /email/signin` (`?request=…`, required for sign-in).
    func addressPage(_ page: AddressForm, _ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard mailer.isMailConfigured else { return Self.notice(errors.page, SignUpText.offTitle, SignUpText.offBody, status: 404) }
        let handle = request.query.first("request")
        if page.purpose == .signIn, handle == nil { return errors.requestGone() }
        let pending: PendingRequest?
        switch pendingOrError(handle, errors) {
        case .failure(let error): return error.response
        case .success(let found): pending = found
        }
        guard isOffered(page, for: pending) else { return Self.notice(errors.page, SignUpText.offTitle, SignUpText.offBody, status: 404) }
        let browser = interactive.browserValue(request)
        return Self.withCookie(addressForm(errors.page, page, handle: handle, browserValue: browser.value, email: "", error: nil, status: 200),
                               browser.cookie)
    }

    func addressForm(_ context: PageContext, _ page: AddressForm, handle: String?, browserValue: String, email: String, error: String?, status: Int) -> HTTPResponse {
        var body = "<p>\(context.html(page.text.intro))</p>\n"
        if let error { body += Self.errorParagraph(error) }
        body += formStart(action: page.path, handle: handle, browserValue: browserValue, purpose: page.path + ":" + (handle ?? ""),
                          emailLabel: context.text(page.text.email), email: email, autocomplete: "username")
        body += "<button type=\"submit\">\(context.html(page.text.submit))</button>\n</form>\n"
        body += Self.backToSignIn(handle, label: context.text(page.text.back))
        return HTMLPage.response(context, title: context.text(page.text.title), body: body, status: status)
    }

    /// The mail of a reset asked for an `sso_required` address: the organization's name (its
    /// domain when the organization is gone), its connection's, and the account page, which starts
    /// a sign-in of its own (never the requester's pending request: the mail goes to an address
    /// the requester only typed).
    func organizationSignInMail(_ realm: HomeRealmDecision, email: String) throws -> AccountMail {
        let organizationID: String? = switch realm {
        case .governed(_, let id, _), .unavailable(_, let id): id
        case .local, .configured: nil
        }
        let organization = try organizationID.flatMap { try users.storage.organizations.organization(id: $0) }
        let signIn = mailer.url(Routes.account)
        return .organizationSignIn(organization: organization?.name ?? DomainGovernance.domain(email),
                                   connection: interactive.domains.connectionName(realm.owningConnectionID ?? ""), signInLink: signIn)
    }

    /// `POST /password/forgot` and `POST /email/signin`.
    func addressSubmit(_ page: AddressForm, _ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard mailer.isMailConfigured else { return Self.notice(errors.page, SignUpText.offTitle, SignUpText.offBody, status: 404) }
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        let handle = (try? form.single("request")).flatMap { $0.isEmpty ? nil : $0 }
        if page.purpose == .signIn, handle == nil { return errors.requestGone() }
        guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: page.path + ":" + (handle ?? "")) else {
            return errors.csrfFailure()
        }
        let pending: PendingRequest?
        switch pendingOrError(handle, errors) {
        case .failure(let error): return error.response
        case .success(let found): pending = found
        }
        guard isOffered(page, for: pending) else { return Self.notice(errors.page, SignUpText.offTitle, SignUpText.offBody, status: 404) }
        let browserValue = request.cookies[interactive.csrfCookieName] ?? ""
        let rawEmail = (try? form.single("email")) ?? ""
        let email: String
        do { email = try EmailAddress.normalize(rawEmail) } catch {
            return addressForm(errors.page, page, handle: handle, browserValue: browserValue, email: String(rawEmail.prefix(EmailAddress.maximumBytes)),
                               error: ValidationText.message(error, errors.page), status: 400)
        }
        do {
            // An `sso_required` domain signs in only through its connection: no challenge, no mail.
            if page.purpose == .signIn, let realm = try interactive.flow.gate.realmRefusal(email: email, way: .emailCode, connectionID: nil) {
                return interactive.ssoRequiredRefusal(realm, email: email, handle: handle, browserValue: request.cookies[interactive.csrfCookieName],
                                                      way: "otp", errors)
            }
            // A reset for an `sso_required` domain: the same answer, the same work (an
            // unanswerable challenge, as for an address without an account), but the mail says
            // to sign in through the organization, with no code and no link that resets anything.
            let governed = page.purpose == .resetPassword ? try interactive.flow.gate.realmRefusal(email: email, way: .password, connectionID: nil) : nil
            guard try challenges.admit(purpose: page.purpose, email: email, clientAddress: request.clientKey) else { return Self.throttled(errors.page) }
            let user = try users.storage.users.user(email: email)
            let userID = governed == nil && user?.disabledAt == nil ? user?.id : nil
            let id = try mailer.send(page.purpose, to: email, userID: userID, browserValue: browserValue, requestHandle: handle,
                                     signUpOpen: accounts.signUp != .off, language: errors.page.language,
                                     instead: try governed.map { try organizationSignInMail($0, email: email) })
            return Self.toCodePage(id)
        } catch {
            return errors.internalError(page.path, error)
        }
    }
}
