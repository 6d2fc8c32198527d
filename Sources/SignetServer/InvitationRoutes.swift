import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

/// An organization invitation's link (`/invitation?token=sgi_…`, docs/organizations.md): the page
/// that names the organization and the role, and its one form (`POST /invitation`, `action`):
///
/// - `accept`: a signed-in user whose email is the invited one accepts (`Organizations.accept`);
/// - `signin`: sign in first, through the account client's ordinary `/authorize` flow (every
///   first factor, any second factor), coming back to `/invitation/callback`, then this page;
/// - `switch`: a user signed in with another address signs out and comes back here;
/// - `signup` (and `show`/`hide` of the password): a new account for the invited address, its
///   email verified by the link itself, stored and made a member in the acceptance's one
///   transaction. The invitation is the permission, so this works whatever `accounts.sign_up`
///   says; an `sso_required` domain is still refused (its accounts come from its connection).
///
/// The token travels in the link, the form's hidden field, and across the sign-in in a sealed
/// cookie (`InvitationCookie`); it is stored only as its keyed hash, and never logged.
struct InvitationRoutes: Sendable {
    let interactive: InteractiveRoutes
    let organizations: Organizations
    let users: UserService
    let cookie: InvitationCookie

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        organizations = application.environment.makeOrganizations()
        users = interactive.signIn.users
        cookie = InvitationCookie(browserKey: application.environment.masterKey.browserKey, secure: interactive.secure)
    }

    /// The CSRF purpose of the invitation form (bound to the browser's cookie).
    static let purpose = "invitation"

    var clock: any Clock { interactive.server.clock }

    // MARK: GET

    /// `GET /invitation?token=…` (or the token kept in the cookie across a sign-in).
    func page(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let token = request.query.first("token") ?? cookie.token(request)
        do {
            switch try lookup(token) {
            case .failure(let refusal): return refusalPage(refusal, errors)
            case .success(let found):
                let browser = interactive.browserValue(request)
                let response = try render(found, token: token ?? "", request: request, browserValue: browser.value, errors, form: nil)
                return SelfServiceRoutes.withCookie(response, browser.cookie)
            }
        } catch {
            return errors.internalError("invitation page", error)
        }
    }

    /// `GET /invitation/callback`: the account client's redirect after a sign-in started here;
    /// the session cookie is set and the code left to expire unredeemed. Back to the page, whose
    /// token is in the cookie.
    func callback(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        InteractiveRoutes.local(Routes.invitation)
    }

    /// An invitation that may still be accepted, with its organization.
    struct Found {
        let invitation: OrganizationInvitationRecord
        let organization: OrganizationRecord
    }

    /// Why a link cannot be used.
    enum Refusal: Error {
        case unknown, used, revoked, expired
    }

    /// The pending invitation of `token`, or why not.
    func lookup(_ token: String?) throws -> Result<Found, Refusal> {
        guard let token, let invitation = try organizations.invitation(token: token),
              let organization = try organizations.find(invitation.organizationID) else { return .failure(.unknown) }
        if invitation.acceptedAt != nil { return .failure(.used) }
        if invitation.revokedAt != nil { return .failure(.revoked) }
        if invitation.expiresAt <= clock.now { return .failure(.expired) }
        return .success(Found(invitation: invitation, organization: organization))
    }

    /// The sign-up form's fields when it is shown again.
    struct SignUpForm {
        var name = "", password = "", visible = false, error: String?
    }

    /// The page for a pending invitation, by who is signed in.
    func render(_ found: Found, token: String, request: HTTPRequest, browserValue: String, _ errors: ErrorRenderer,
                form: SignUpForm?, status: Int = 200) throws -> HTTPResponse {
        let page = errors.page
        let invitation = found.invitation
        let csrf = interactive.csrf.token(browserValue: browserValue, purpose: Self.purpose)
        func strong(_ text: String) -> String { "<strong>\(HTMLPage.escape(text))</strong>" }
        func button(_ action: String, _ label: InvitationText, secondary: Bool = false) -> String {
            "<form method=\"post\" action=\"\(Routes.invitation)\">\n" + HTMLPage.hidden("csrf", csrf) + "\n" + HTMLPage.hidden("token", token) + "\n"
                + "<button type=\"submit\" name=\"action\" value=\"\(action)\"\(secondary ? " class=\"secondary\"" : "")>\(page.html(label))</button>\n</form>\n"
        }
        var body = "<p>\(page.html(InvitationText.invited, strong(found.organization.name), strong(invitation.role)))</p>\n"
        let title = page.text(InvitationText.title, found.organization.name)
        if let session = try interactive.flow.sessions.active(token: interactive.sessionToken(request)) {
            guard session.user.email == invitation.email else {
                // Only the signed-in user's own address is shown, not the invited one.
                let other = "<p class=\"error\" role=\"alert\">\(page.html(InvitationText.otherEmail, strong(session.user.email)))</p>\n"
                return HTMLPage.response(page, title: page.text(InvitationText.otherEmailTitle), body: other + button("switch", .switchAccount),
                                         status: 403)
            }
            body += "<p>\(page.html(InvitationText.signedInAs, strong(session.user.email)))</p>\n" + button("accept", .accept)
            return HTMLPage.response(page, title: title, body: body, status: status)
        }
        body += "<p>\(page.html(InvitationText.forAddress, strong(invitation.email)))</p>\n"
        let realm = try interactive.domains.decision(forEmail: invitation.email)
        if realm.ssoRequired {
            // The domain's accounts come from its connection: the sign-in page sends the address there.
            let connection = interactive.domains.connectionName(realm.owningConnectionID ?? "")
            body += "<p>\(page.html(InvitationText.governed, strong(DomainGovernance.domain(invitation.email)), strong(connection)))</p>\n"
            body += button("signin", .signInToAccept)
        } else if try users.storage.users.user(email: invitation.email) != nil {
            if form != nil { body += SelfServiceRoutes.errorParagraph(page.text(InvitationText.accountExists)) }
            body += button("signin", .signInToAccept)
        } else {
            let form = form ?? SignUpForm()
            body += "<h2>\(page.html(InvitationText.createHeading))</h2>\n<p class=\"muted\">\(page.html(InvitationText.createIntro))</p>\n"
            if let error = form.error { body += SelfServiceRoutes.errorParagraph(error) }
            body += "<form method=\"post\" action=\"\(Routes.invitation)\">\n" + HTMLPage.hidden("csrf", csrf) + "\n" + HTMLPage.hidden("token", token) + "\n"
            // The address is the invited one, fixed: shown read-only, never read from the form.
            body += "<label for=\"email\">\(page.html(SignUpText.email))</label>\n"
            body += "<input id=\"email\" type=\"email\" autocomplete=\"username\" readonly value=\"\(HTMLPage.escape(invitation.email))\">\n"
            body += SelfServiceRoutes.passwordField(label: page.text(SignUpText.password), value: form.password, visible: form.visible,
                                                    hint: page.text(SignUpText.passwordHint), page: page)
            body += "<label for=\"name\">\(page.html(SignUpText.name))</label>\n"
            body += "<input id=\"name\" name=\"name\" type=\"text\" autocomplete=\"name\" maxlength=\"\(SelfServiceRoutes.maximumNameLength)\" value=\"\(HTMLPage.escape(form.name))\">\n"
            body += "<button type=\"submit\" name=\"action\" value=\"signup\">\(page.html(InvitationText.create))</button>\n</form>\n"
            body += "<p class=\"muted\">\(page.html(InvitationText.haveAccount))</p>\n" + button("signin", .signInToAccept, secondary: true)
        }
        return HTMLPage.response(page, title: title, body: body, status: status)
    }

    /// The page of a link that cannot be used: 404 for an unknown one, 410 for a used, withdrawn
    /// or expired one. Nothing else is said about the invitation.
    func refusalPage(_ refusal: Refusal, _ errors: ErrorRenderer) -> HTTPResponse {
        switch refusal {
        case .unknown: SelfServiceRoutes.notice(errors.page, InvitationText.unknownTitle, InvitationText.unknown, status: 404)
        case .used: SelfServiceRoutes.notice(errors.page, InvitationText.usedTitle, InvitationText.used, status: 410)
        case .revoked: SelfServiceRoutes.notice(errors.page, InvitationText.revokedTitle, InvitationText.revoked, status: 410)
        case .expired: SelfServiceRoutes.notice(errors.page, InvitationText.expiredTitle, InvitationText.expired, status: 410)
        }
    }

    /// The page after an acceptance: the organization, the roles now held, and the account page.
    func acceptedPage(_ organization: OrganizationRecord, _ member: OrganizationMemberRecord, _ errors: ErrorRenderer) -> HTTPResponse {
        let page = errors.page
        let roles = member.roles.map(HTMLPage.escape).joined(separator: ", ")
        var body = "<p class=\"notice\" role=\"status\">\(page.html(InvitationText.accepted, "<strong>\(HTMLPage.escape(organization.name))</strong>", "<strong>\(roles)</strong>"))</p>\n"
        body += "<p><a href=\"\(Routes.account)\">\(page.html(InvitationText.continueToAccount))</a></p>\n"
        var response = HTMLPage.response(page, title: page.text(InvitationText.acceptedTitle, organization.name), body: body)
        response.setCookie(interactive.clearedCookie(cookie.name))
        return response
    }

    // MARK: POST

    /// `POST /invitation` (on a blocking-work thread: the sign-up hashes a password).
    func submit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), let token = try? form.single("token"),
              let action = try? form.single("action") else { return errors.malformedForm() }
        guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: Self.purpose) else { return errors.csrfFailure() }
        do {
            let found: Found
            switch try lookup(token) {
            case .failure(let refusal): return refusalPage(refusal, errors)
            case .success(let pending): found = pending
            }
            switch action {
            case "accept": return try accept(found, token: token, request: request, errors)
            case "signin":
                var response = AccountRoutes.startSignIn(interactive, freshLogin: false, callbackPath: AccountClient.invitationCallbackPath,
                                                         loginHint: found.invitation.email)
                if let kept = cookie.cookie(keeping: token) { response.setCookie(kept) }
                return response
            case "switch":
                let session = try interactive.flow.sessions.active(token: interactive.sessionToken(request))
                try interactive.flow.sessions.end(token: interactive.sessionToken(request))
                if let session {
                    interactive.server.audit("session_ended", actor: "user:\(session.user.id)", subject: session.user.id, reason: "switch_account")
                }
                var response = InteractiveRoutes.local(Routes.invitation)
                response.setCookie(interactive.clearedCookie(interactive.sessionCookieName))
                if let kept = cookie.cookie(keeping: token) { response.setCookie(kept) }
                return response
            case "signup", "show", "hide": return try signUp(found, token: token, form: form, request: request, errors)
            default: return errors.malformedForm()
            }
        } catch {
            return errors.internalError("invitation", error)
        }
    }

    /// `action=accept`: only for the signed-in user with the invited address (decided again in
    /// the store's transaction, which also refuses a link used, revoked or expired meanwhile).
    /// The link proves the mailbox, so an address not yet confirmed is confirmed by accepting.
    func accept(_ found: Found, token: String, request: HTTPRequest, _ errors: ErrorRenderer) throws -> HTTPResponse {
        guard let session = try interactive.flow.sessions.active(token: interactive.sessionToken(request)) else {
            // Signed out meanwhile: the page again, which offers the sign-in.
            var response = InteractiveRoutes.local(Routes.invitation)
            if let kept = cookie.cookie(keeping: token) { response.setCookie(kept) }
            return response
        }
        let user = session.user
        switch try organizations.accept(token: token, user: user) {
        case .accepted(_, let member):
            if !user.emailVerified {
                try users.storage.users.updateProfile(userID: user.id, name: user.name, givenName: user.givenName, familyName: user.familyName,
                                                      emailVerified: true, now: clock.now)
                interactive.server.auditor.record("email_verified", subject: user.id, method: "invitation")
            }
            return acceptedPage(found.organization, member, errors)
        case .otherEmail:
            let browserValue = request.cookies[interactive.csrfCookieName] ?? ""
            return try render(found, token: token, request: request, browserValue: browserValue, errors, form: nil)
        case .unknown: return refusalPage(.unknown, errors)
        case .alreadyAccepted: return refusalPage(.used, errors)
        case .revoked: return refusalPage(.revoked, errors)
        case .expired: return refusalPage(.expired, errors)
        }
    }

    /// `action=signup`: a new account for the invited address (never the form's), verified by the
    /// link, then signed in. Refused for an `sso_required` domain (403, nothing made) and for an
    /// address that has an account (409: sign in instead).
    func signUp(_ found: Found, token: String, form: RequestParameters, request: HTTPRequest, _ errors: ErrorRenderer) throws -> HTTPResponse {
        let email = found.invitation.email
        let browserValue = request.cookies[interactive.csrfCookieName] ?? ""
        let rawName = (try? form.single("name")) ?? ""
        let password = (try? form.single("password")) ?? ""
        func again(_ error: String?, visible: Bool = false, status: Int = 400) throws -> HTTPResponse {
            try render(found, token: token, request: request, browserValue: browserValue, errors,
                       form: SignUpForm(name: String(rawName.prefix(SelfServiceRoutes.maximumNameLength)),
                                        password: password.utf8.count <= UserService.maximumPasswordBytes ? password : "",
                                        visible: visible, error: error),
                       status: status)
        }
        if let visible = SelfServiceRoutes.toggle(form) { return try again(nil, visible: visible, status: 200) }
        if let realm = try interactive.flow.gate.realmRefusal(email: email, way: .invitation, connectionID: nil) {
            return interactive.ssoRequiredRefusal(realm, email: email, handle: nil, browserValue: nil, way: "signup", errors)
        }
        if try users.storage.users.user(email: email) != nil { return try again(nil, status: 409) }
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= SelfServiceRoutes.maximumNameLength, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return try again(errors.page.text(SignUpText.nameTooLong))
        }
        let user: UserRecord
        do { user = try users.newUser(email: email, name: name.isEmpty ? nil : name, password: password, emailVerified: true) } catch let error as UserServiceError {
            return try again(ValidationText.message(error, errors.page))
        }
        let outcome: InvitationAcceptance
        do { outcome = try organizations.accept(token: token, creating: user) } catch StoreError.duplicate {
            return try again(nil, status: 409)   // an account for the address was made meanwhile
        }
        switch outcome {
        case .accepted(_, let member):
            // The password was just set here: a new session through the gate (the browser's
            // previous one ends); when the gate wants more (`mfa.required`: an enrolment), no
            // session, and the page's sign-in takes the user there.
            var response = acceptedPage(found.organization, member, errors)
            if case .proceed(let admission) = try interactive.flow.gate.decide(SignInEvent(user: user, amr: ["pwd"], way: .invitation),
                                                                               for: .noClient) {
                try interactive.flow.sessions.end(token: interactive.sessionToken(request))
                response.setCookie(interactive.sessionCookie(try interactive.flow.sessions.start(admission).token))
            }
            return response
        case .unknown, .otherEmail: return refusalPage(.unknown, errors)
        case .alreadyAccepted: return refusalPage(.used, errors)
        case .revoked: return refusalPage(.revoked, errors)
        case .expired: return refusalPage(.expired, errors)
        }
    }
}

/// An invitation's token kept across the sign-in that accepts it: a `SealedCookie`, so it never
/// goes into the authorization request, a log or the database. `SameSite=Lax`: the sign-in may
/// come back from a provider's site through a top-level redirect.
struct InvitationCookie: Sendable {
    /// How long the token is kept for the sign-in.
    static let lifetime = 1800
    static let associatedData = "signet/invitation"

    let sealed: SealedCookie

    init(browserKey: [UInt8], secure: Bool) {
        sealed = SealedCookie(browserKey: browserKey, purpose: "signet/invitation-token", name: "signet_invitation", lifetime: Self.lifetime,
                              sameSite: .lax, maximumBytes: 64, secure: secure)
    }

    var name: String { sealed.name }

    /// The cookie that keeps `token`; nil for a token that cannot be an invitation's.
    func cookie(keeping token: String) -> SetCookie? {
        guard token.hasPrefix("sgi_") else { return nil }
        return sealed.cookie(keeping: token, associatedData: Self.associatedData)
    }

    /// The token kept in this request's cookie, or nil.
    func token(_ request: HTTPRequest) -> String? { sealed.text(request, associatedData: Self.associatedData) }
}
