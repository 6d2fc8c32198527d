import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// An organization invitation's link over real HTTP, the invitation mailed to a real SMTP sink:
/// sign-up through the link (with `accounts.sign_up` off), acceptance by the signed-in invited
/// user, another address told and switched, sign-in and back, and each refusal with nothing stored.
@Suite(.endToEndLimit)
struct InvitationEndToEndTests {
    /// The server (sign-up off: the invitation is the permission), an organization, and its mailer.
    struct Fixture {
        let accounts: Accounts
        let organization: OrganizationRecord
        var server: TestServer { accounts.server }
        var environment: ServerEnvironment { server.environment }
        var store: any OrganizationStore { environment.storage.organizations }

        static func start(configure: @escaping (inout SignetConfiguration) -> Void = { _ in }) async throws -> Fixture {
            let accounts = try await Accounts.start {
                $0.accounts.signUp = .off
                configure(&$0)
            }
            let organization = try accounts.server.environment.makeOrganizations().create(slug: "acme", name: "Acme <Corp>")
            return Fixture(accounts: accounts, organization: organization)
        }

        func stop() async { await accounts.stop() }

        /// Invites `email` with `role`; returns the invitation and the link read from the mail the sink received (the `n`-th).
        func invite(_ email: String, role: String = "member", mail n: Int = 1) async throws -> (OrganizationInvitationRecord, URL) {
            let mailer = InvitationMailer(environment: environment)
            let invitation = try environment.makeOrganizations().invite(organization, email: email, role: role, actor: "test",
                                                                         mail: mailer.mail(for: organization))
            mailer.notify()
            let mail = try await accounts.mail(n)
            #expect(mail.to.contains(email.lowercased()))
            let link = try Accounts.link("Accept the invitation", in: mail)
            #expect(link.absoluteString.hasPrefix(server.issuer + Routes.invitation + "?token=sgi_"))
            return (invitation, link)
        }

        func roles(_ userID: String) throws -> [String]? { try store.membership(organizationID: organization.id, userID: userID)?.roles }

        func events(_ name: String) throws -> [AuditEvent] {
            try environment.storage.audit.recentAudit(limit: 1000).filter { $0.event == name }
        }
    }

    /// The invitation page's form whose button has `value` (`accept`, `signin`, `switch`, `signup`).
    static func form(_ browser: FormBrowser, _ value: String) throws -> HTMLForm {
        try #require(browser.forms.first { $0.action.path == Routes.invitation && $0.buttons.contains { $0.value == value } },
                     "no \(value) form on: \(browser.page?.text ?? "")")
    }

    static func press(_ browser: FormBrowser, _ value: String, _ fields: [String: String] = [:]) async throws -> BrowserOutcome {
        var fields = fields
        fields["action"] = value
        return try await browser.submit(try form(browser, value), fields: fields)
    }

    static func token(_ link: URL) throws -> String {
        try #require(URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
    }

    @Test func aNewPersonSignsUpThroughTheInvitationWithTheAddressFixedAndVerifiedEvenWithSignUpOff() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (invitation, link) = try await fixture.invite("Carol@Example.com", role: "admin")
        let browser = FormBrowser()
        let page = try await browser.open(link)
        #expect(page.status == 200)
        expectHardened(page.response)
        let text = page.response.text
        #expect(text.contains("<title>Join Acme &lt;Corp&gt;"))
        #expect(text.contains("You are invited to join <strong>Acme &lt;Corp&gt;</strong> as <strong>admin</strong>."))
        #expect(text.contains("readonly value=\"carol@example.com\""))
        #expect(!text.contains("<script"))
        let signUp = try Self.form(browser, "signup")
        #expect(signUp.fields.contains { $0.name == "csrf" } && !signUp.fields.contains { $0.name == "email" })
        #expect(signUp.fields.contains { $0.name == "token" && $0.value == (try? Self.token(link)) })
        #expect(try Self.form(browser, "signin").buttons.map(\.value) == ["signin"])
        // The ordinary sign-up page stays off.
        #expect(try await HTTPTestClient().get(fixture.server.url(Routes.signUp)).status == 404)

        // An address typed into the form is ignored: the account is the invited one's.
        let done = try await Self.press(browser, "signup", ["password": "carol's fine passphrase", "name": "Carol", "email": "mallory@example.com"])
        #expect(done.status == 200)
        #expect(done.response.text.contains("You are now a member of <strong>Acme &lt;Corp&gt;</strong> as <strong>admin</strong>."))
        #expect(done.response.text.contains("href=\"/account\""))
        let carol = try #require(try fixture.environment.storage.users.user(email: "carol@example.com"))
        #expect(carol.emailVerified && carol.name == "Carol")
        #expect(try fixture.environment.storage.users.user(email: "mallory@example.com") == nil)
        #expect(try fixture.roles(carol.id) == ["admin"])
        #expect(try fixture.store.invitation(id: invitation.id)?.acceptedBy == carol.id)
        #expect(try fixture.events("sign_up").map(\.method) == ["invitation"])
        #expect(try fixture.events("organization_invitation_accepted").map(\.subjectID) == [carol.id])
        // Signed in: the account page opens without another sign-in; no code was mailed.
        #expect(Interactive.sessionCookie(browser) != nil)
        let account = try await browser.open(fixture.server.url(Routes.account))
        #expect(account.status == 200 && account.response.text.contains("carol@example.com"))
        // Single use: the link is dead now, for this browser and any other.
        let again = try await FormBrowser().open(link)
        #expect(again.status == 410 && again.response.text.contains("already used"))
        // The token is nowhere in the data folder (only its keyed hash is stored).
        let token = try Self.token(link)
        for file in try FileManager.default.contentsOfDirectory(atPath: fixture.server.dataDirectory) {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fixture.server.dataDirectory).appendingPathComponent(file))) ?? Data()
            #expect(bytes.range(of: Data(token.utf8)) == nil, "the token is in \(file)")
        }
        // And the new password signs in.
        let next = FormBrowser()
        _ = try await next.open(fixture.accounts.app.authorizeURL(pkce: PKCEPair.generate()))
        #expect(try await fixture.accounts.app.submitCredentials(next, email: "carol@example.com", password: "carol's fine passphrase").redirect != nil)
    }

    @Test func theSignedInInvitedUserAcceptsOnceAndTheAddressCountsAsConfirmed() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let alice = fixture.accounts.app.user
        #expect(!alice.emailVerified)
        try fixture.environment.makeOrganizations().addMember(fixture.organization, userID: alice.id, roles: ["member"])
        let (invitation, link) = try await fixture.invite(Interactive.email, role: "admin")
        let browser = FormBrowser()
        _ = try await fixture.accounts.app.signIn(browser, pkce: PKCEPair.generate())
        let page = try await browser.open(link)
        #expect(page.status == 200)
        #expect(page.response.text.contains("You are signed in as <strong>alice@example.com</strong>."))
        #expect(!browser.forms.contains { $0.buttons.contains { $0.value == "signup" } })
        let acceptForm = try Self.form(browser, "accept")
        let accepted = try await Self.press(browser, "accept")
        #expect(accepted.status == 200)
        #expect(accepted.response.text.contains("as <strong>admin, member</strong>."))
        #expect(try fixture.roles(alice.id) == ["admin", "member"])
        #expect(try fixture.environment.storage.users.user(id: alice.id)?.emailVerified == true)
        #expect(try fixture.store.invitation(id: invitation.id)?.acceptedBy == alice.id)
        // The same form posted again: used, nothing changes.
        let twice = try await browser.submit(acceptForm, fields: ["action": "accept"])
        #expect(twice.status == 410)
        #expect(twice.response.text.contains("already used"))
        #expect(try fixture.events("organization_invitation_accepted").count == 1)
        // Without the CSRF field: refused before anything.
        let forged = try await HTTPTestClient(cookies: browser.cookies).post(fixture.server.url(Routes.invitation),
                                                                            form: [("token", try Self.token(link)), ("action", "accept")])
        #expect(forged.status == 403)
    }

    @Test func aUserSignedInWithAnotherAddressIsToldAndSwitchesAccounts() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (invitation, link) = try await fixture.invite("dora@example.com")
        let browser = FormBrowser()
        _ = try await fixture.accounts.app.signIn(browser, pkce: PKCEPair.generate())
        let aliceSession = try #require(Interactive.sessionCookie(browser)?.value)
        let page = try await browser.open(link)
        #expect(page.status == 403)
        #expect(page.response.text.contains("You are signed in as <strong>alice@example.com</strong>, but this invitation was sent to another email address."))
        #expect(!page.response.text.contains("dora"))   // the invited address is not shown to another account
        // Accepting anyway (the switch form's token and CSRF field, the accept action): refused, nothing stored.
        let refused = try await browser.submit(try Self.form(browser, "switch"), fields: ["action": "accept"])
        #expect(refused.status == 403)
        #expect(try fixture.store.invitation(id: invitation.id)?.acceptedAt == nil)
        #expect(try fixture.roles(fixture.accounts.app.user.id) == nil)
        #expect(try fixture.events("organization_invitation_accepted").isEmpty)
        // Switching: signed out, back on the invitation's page, which offers the sign-up.
        let switched = try await Self.press(browser, "switch")
        #expect(switched.status == 200)
        #expect(switched.history.map(\.path) == [Routes.invitation, Routes.invitation])
        #expect(try Self.form(browser, "signup").action.path == Routes.invitation)
        #expect(try fixture.environment.storage.sessions.activeSessions(userID: fixture.accounts.app.user.id, now: fixture.server.clock.now).isEmpty)
        #expect(Interactive.sessionCookie(browser)?.value != aliceSession)
        let done = try await Self.press(browser, "signup", ["password": "dora's fine passphrase"])
        #expect(done.status == 200)
        let dora = try #require(try fixture.environment.storage.users.user(email: "dora@example.com"))
        #expect(try fixture.roles(dora.id) == ["member"])
    }

    @Test func anExistingAccountSignsInFromTheInvitationAndComesBackToAccept() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (_, link) = try await fixture.invite(Interactive.email)
        let browser = FormBrowser()
        let page = try await browser.open(link)
        #expect(page.status == 200)
        // An account has this address: sign in, no sign-up form.
        #expect(!browser.forms.contains { $0.buttons.contains { $0.value == "signup" } })
        let signIn = try await Self.press(browser, "signin")
        #expect(signIn.status == 200 && signIn.url.path == Routes.signIn)
        #expect(signIn.response.text.contains("value=\"alice@example.com\""))   // login_hint
        let back = try await fixture.accounts.app.submitCredentials(browser)
        #expect(back.status == 200)
        #expect(back.history.map(\.path).suffix(2) == [Routes.invitationCallback, Routes.invitation])
        #expect(back.response.text.contains("You are signed in as <strong>alice@example.com</strong>."))
        let accepted = try await Self.press(browser, "accept")
        #expect(accepted.status == 200)
        #expect(try fixture.roles(fixture.accounts.app.user.id) == ["member"])
        // The token kept for the sign-in is cleared.
        #expect(browser.cookies["signet_invitation"]?.value.isEmpty ?? true)
    }

    @Test func aSocialSignInWithTheInvitedVerifiedAddressMayAcceptButTheEmailBoundWayIsThePagesOwn() async throws {
        let fed = try Federated(.generic, id: "social", user: MockUser(subject: "fay-social", email: "fay@example.com", emailVerified: true))
        defer { fed.stop() }
        let organizations = fed.server.environment.makeOrganizations()
        let org = try organizations.create(slug: "acme", name: "Acme")
        var token = ""
        _ = try organizations.invite(org, email: "fay@example.com", role: "member", actor: "test") { made, _ in
            token = made
            return nil
        }
        let browser = fed.browser()
        let page = try await browser.open(fed.server.url(Routes.invitation, query: [("token", token)]))
        #expect(page.status == 200)
        // The page's own action is the email-bound one: no provider button on it.
        #expect(!page.response.text.contains(Routes.federationStart))
        #expect(try Self.form(browser, "signup").action.path == Routes.invitation)
        // "Sign in" leads to the ordinary sign-in page, where the provider is one way among others.
        let signIn = try await Self.press(browser, "signin")
        #expect(signIn.url.path == Routes.signIn)
        let back = try await browser.open(fed.server.url(try Federated.providerLink(browser, connection: "social")))
        #expect(back.status == 200 && back.url.path == Routes.invitation)
        #expect(back.response.text.contains("You are signed in as <strong>fay@example.com</strong>."))
        let accepted = try await Self.press(browser, "accept")
        #expect(accepted.status == 200)
        let fay = try #require(try fed.server.environment.storage.users.user(email: "fay@example.com"))
        #expect(try fed.server.environment.storage.organizations.membership(organizationID: org.id, userID: fay.id)?.roles == ["member"])
        #expect(try fed.server.environment.storage.users.federatedIdentities(userID: fay.id).map(\.connectionID) == ["social"])
    }

    @Test func anUnknownOrGarbledLinkIsRefusedWithAPage() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        for query in [[("token", "sgi_" + String(repeating: "A", count: 43))], [("token", "garbled")], [("token", "sgi_" + String(repeating: "x", count: 300))], []] {
            let page = try await HTTPTestClient().get(fixture.server.url(Routes.invitation, query: query))
            #expect(page.status == 404)
            #expect(page.text.contains("This invitation link does not work"))
            expectHardened(page)
        }
        let german = try await HTTPTestClient().get(fixture.server.url(Routes.invitation, query: [("token", "garbled")]), headers: ["Accept-Language": "de"])
        #expect(german.text.contains("Dieser Einladungslink funktioniert nicht"))
    }

    @Test(arguments: ["expired", "revoked", "resent"])
    func aLinkThatNoLongerWorksIsRefusedAndTheFormCreatesNothing(_ how: String) async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (invitation, link) = try await fixture.invite("erin@example.com")
        let browser = FormBrowser()
        #expect(try await browser.open(link).status == 200)
        let form = try Self.form(browser, "signup")
        let organizations = fixture.environment.makeOrganizations()
        switch how {
        case "expired": fixture.server.clock.advance(by: 7 * 86_400)
        case "revoked": try organizations.revoke(invitation, actor: "test")
        default:
            let mailer = InvitationMailer(environment: fixture.environment)
            _ = try organizations.resend(invitation, actor: "test", mail: mailer.mail(for: fixture.organization))
        }
        let (status, words) = switch how {
        case "expired": (410, "This invitation has expired")
        case "revoked": (410, "This invitation was withdrawn")
        default: (404, "This invitation link does not work")
        }
        let refused = try await browser.submit(form, fields: ["action": "signup", "password": "erin's fine passphrase"])
        #expect(refused.status == status)
        #expect(refused.response.text.contains(words))
        #expect(try fixture.environment.storage.users.user(email: "erin@example.com") == nil)
        #expect(try fixture.events("sign_up").isEmpty)
        let reopened = try await FormBrowser().open(link)
        #expect(reopened.status == status)
    }

    @Test func aSignUpThroughTheInvitationForAGovernedDomainIsRefusedAndCreatesNothing() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let claims = fixture.environment.makeDomainClaims()
        _ = try claims.claim("acme.test", organizationID: fixture.organization.id)
        _ = try claims.verifyByOperator("acme.test", organizationID: fixture.organization.id)
        _ = try claims.bind("acme.test", organizationID: fixture.organization.id, connectionID: "corp", policy: .ssoRequired)
        let (invitation, link) = try await fixture.invite("gus@acme.test")
        let browser = FormBrowser()
        let page = try await browser.open(link)
        #expect(page.status == 200)
        #expect(page.response.text.contains("Accounts at <strong>acme.test</strong> sign in through <strong>corp</strong>."))
        #expect(!browser.forms.contains { $0.buttons.contains { $0.value == "signup" } })
        // The sign-up posted anyway (the sign-in form's token and CSRF field): 403, nothing made.
        let refused = try await browser.submit(try Self.form(browser, "signin"), fields: ["action": "signup", "password": "gus's fine passphrase"])
        #expect(refused.status == 403)
        #expect(refused.response.text.contains("Accounts at <strong>acme.test</strong> sign in through <strong>corp</strong>"))
        #expect(try fixture.environment.storage.users.user(email: "gus@acme.test") == nil)
        #expect(try fixture.store.invitation(id: invitation.id)?.acceptedAt == nil)
        #expect(try fixture.events("sign_in_refused").map(\.reason) == ["sso_required"])
    }

    @Test func aSignUpForAnAddressThatHasAnAccountIsRefusedAndAWeakPasswordAsksAgain() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let (invitation, link) = try await fixture.invite("finn@example.com")
        let browser = FormBrowser()
        _ = try await browser.open(link)
        let form = try Self.form(browser, "signup")
        let weak = try await browser.submit(form, fields: ["action": "signup", "password": "short"])
        #expect(weak.status == 400)
        #expect(weak.response.text.contains("class=\"error\""))
        // Meanwhile an account was made for the address: sign in instead, nothing made or used.
        let finn = try fixture.environment.makeUserService().create(email: "finn@example.com", password: "finn's own passphrase")
        let taken = try await browser.submit(form, fields: ["action": "signup", "password": "another fine passphrase"])
        #expect(taken.status == 409)
        #expect(taken.response.text.contains("An account with this address already exists."))
        #expect(try fixture.environment.storage.users.user(email: "finn@example.com")?.id == finn.id)
        #expect(try fixture.store.invitation(id: invitation.id)?.acceptedAt == nil)
        #expect(try fixture.roles(finn.id) == nil)
    }
}
