import Foundation
import SignetCore
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Changing the account's email on `/account` over real HTTP, the mail read from a real SMTP
/// server: re-authentication, the code and link to the new address, the change only once it is
/// proven, the notice to the old address, and the refusals.
@Suite(.endToEndLimit) struct EmailChangeEndToEndTests {
    /// A fresh browser signed in through `/account`.
    func signedIn(_ accounts: Accounts, email: String = Interactive.email, password: String = Interactive.password) async throws -> FormBrowser {
        let browser = FormBrowser()
        let start = try await browser.open(accounts.server.url(Routes.account))
        #expect(start.url.path == Routes.signIn)
        let back = try await accounts.app.submitCredentials(browser, email: email, password: password)
        #expect(back.status == 200 && back.url.path == Routes.account)
        return browser
    }

    func user(_ accounts: Accounts) throws -> UserRecord? { try accounts.server.environment.storage.users.user(id: accounts.app.user.id) }

    func events(_ accounts: Accounts) throws -> [String] {
        try accounts.server.environment.storage.audit.recentAudit(limit: 100).map(\.event)
    }

    @Test func theNewAddressIsProvenThenTheChangeIsMadeAndTheOldAddressIsTold() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = try await signedIn(accounts)
        let elsewhere = try await signedIn(accounts)
        // A reset mailed to the old address before the change.
        let forgot = FormBrowser()
        _ = try await forgot.open(accounts.server.url(Routes.passwordForgot))
        _ = try await forgot.submit(formWithAction: Routes.passwordForgot, fields: ["email": Interactive.email])
        let resetCode = try Accounts.code(in: try await accounts.mail(1))

        let wrong = try await browser.submit(formWithAction: Routes.accountEmail, fields: ["email": "new.alice@example.org", "password": "not it"])
        #expect(wrong.url.query == "notice=wrong-password")
        let codePage = try await browser.submit(formWithAction: Routes.accountEmail,
                                                fields: ["email": " New.Alice@Example.ORG ", "password": Interactive.password])
        #expect(codePage.status == 200 && codePage.url.path == Routes.emailCode)
        #expect(codePage.history.map(\.path).contains(Routes.accountEmail))
        #expect(codePage.response.text.contains("<strong>new.alice@example.org</strong>"))
        expectHardened(codePage.response)
        // Nothing changes before the new address is proven.
        #expect(try user(accounts)?.email == Interactive.email)

        let mail = try await accounts.mail(2)
        #expect(mail.to.contains("new.alice@example.org") && mail.subject == "Confirm your new email for Example ID")
        let code = try Accounts.code(in: mail)
        #expect(try Accounts.link("Use this email", in: mail).absoluteString.hasPrefix(accounts.server.issuer + Routes.emailLink + "?token=sgl_"))

        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(done.status == 200 && done.url.path == Routes.account && done.url.query == "notice=email-changed")
        #expect(done.response.text.contains("<strong>new.alice@example.org</strong>"))
        let changed = try #require(try user(accounts))
        #expect(changed.email == "new.alice@example.org" && changed.emailVerified)

        let notice = try await accounts.mail(3)
        #expect(notice.to.contains(Interactive.email) && notice.subject == "The email of your Example ID account changed")
        #expect(notice.text?.contains("n…@example.org") == true && notice.text?.contains("new.alice") == false)
        #expect(Accounts.codeIfAny(in: notice) == nil)

        // Sessions stay (docs/accounts.md); the old address no longer signs in, the new one does.
        #expect(try await elsewhere.open(accounts.server.url(Routes.account)).url.path == Routes.account)
        let users = accounts.server.environment.makeUserService()
        #expect(try users.authenticate(email: Interactive.email, password: Interactive.password) == nil)
        #expect(try users.authenticate(email: "new.alice@example.org", password: Interactive.password)?.id == accounts.app.user.id)
        // The code is single use, and the reset mailed to the old address no longer works.
        #expect(try await FormBrowser(cookies: browser.cookies).open(codePage.url).status == 410)
        let reset = try await forgot.submit(formWithAction: Routes.emailCode, fields: ["code": resetCode, "password": "a brand new passphrase"])
        #expect(reset.status == 410)
        #expect(try users.authenticate(email: "new.alice@example.org", password: Interactive.password) != nil)
        let recorded = try events(accounts)
        #expect(recorded.contains("email_change_requested") && recorded.contains("email_changed"))
        #expect(try await accounts.sink.waitForMessages(3).count == 3)
    }

    @Test func theMailedLinkChangesTheAddressInAnyBrowserOnce() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = try await signedIn(accounts)
        _ = try await browser.submit(formWithAction: Routes.accountEmail, fields: ["email": "linked@example.org", "password": Interactive.password])
        let link = try Accounts.link("Use this email", in: try await accounts.mail(1))
        let phone = FormBrowser()
        let page = try await phone.open(link)
        #expect(page.status == 200 && page.response.text.contains("<strong>linked@example.org</strong>"))
        // Opening the link changes nothing (mail scanners open links).
        #expect(try user(accounts)?.email == Interactive.email)
        let done = try await phone.submit(formWithAction: Routes.emailLink)
        #expect(done.status == 200 && done.response.text.contains("Your account now uses <strong>linked@example.org</strong>"))
        #expect(try user(accounts)?.email == "linked@example.org")
        #expect(try await FormBrowser().open(link).status == 410)
    }

    @Test func anAddressOfAnotherAccountGetsTheSameAnswerAndNothingChanges() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        _ = try accounts.server.environment.makeUserService().create(email: "taken@example.org", password: "another fine passphrase")
        let first = try await signedIn(accounts)
        let second = try await signedIn(accounts)
        let takenPage = try await first.submit(formWithAction: Routes.accountEmail, fields: ["email": "taken@example.org", "password": Interactive.password])
        let freePage = try await second.submit(formWithAction: Routes.accountEmail, fields: ["email": "freeee@example.org", "password": Interactive.password])
        #expect(takenPage.status == 200 && freePage.status == 200)
        #expect(takenPage.history.map(\.path) == freePage.history.map(\.path))
        #expect(try blankedCodePage(takenPage, "taken@example.org") == blankedCodePage(freePage, "freeee@example.org"))
        expectSameHeaders(takenPage.response, freePage.response)
        let mails = try await accounts.sink.waitForMessages(2).map { try $0.parsed() }
        let toTaken = try #require(mails.first { $0.to.contains("taken@example.org") })
        #expect(toTaken.subject == "Your Example ID account already uses this email")
        #expect(Accounts.codeIfAny(in: toTaken) == nil)
        for _ in 0..<5 { _ = try await first.submit(formWithAction: Routes.emailCode, fields: ["code": "123456"]) }
        #expect(first.page?.status == 410)
        #expect(try user(accounts)?.email == Interactive.email)
        #expect(try accounts.server.environment.storage.users.user(email: "taken@example.org") != nil)
    }

    @Test func anAddressTakenBeforeTheCodeIsEnteredRefusesTheChange() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = try await signedIn(accounts)
        _ = try await browser.submit(formWithAction: Routes.accountEmail, fields: ["email": "race@example.org", "password": Interactive.password])
        let code = try Accounts.code(in: try await accounts.mail(1))
        _ = try accounts.server.environment.makeUserService().create(email: "race@example.org", password: "another fine passphrase")
        let refused = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(refused.status == 409 && refused.response.text.contains("The email address was not changed"))
        #expect(try user(accounts)?.email == Interactive.email)
        #expect(!(try events(accounts)).contains("email_changed"))
    }

    @Test func badInputIsRefusedAndChangesNothing() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = try await signedIn(accounts)
        for (email, notice) in [("not an address", "email-invalid"), (String(repeating: "a", count: 250) + "@example.org", "email-invalid"),
                                ("ALICE@example.com", "email-unchanged")] {
            let answer = try await browser.submit(formWithAction: Routes.accountEmail, fields: ["email": email, "password": Interactive.password])
            #expect(answer.status == 200 && answer.url.query == "notice=\(notice)", "\(email)")
        }
        let german = try await browser.open(accounts.server.url(Routes.account, query: [("notice", "email-invalid")]),
                                            headers: ["Accept-Language": "de"])
        #expect(german.response.text.contains("Diese E-Mail-Adresse kann nicht verwendet werden"))
        let client = HTTPTestClient(cookies: browser.cookies)
        let noCSRF = try await client.post(accounts.server.url(Routes.accountEmail), form: [("email", "x@example.org"), ("password", Interactive.password)])
        #expect(noCSRF.status == 403)
        let anonymous = try await HTTPTestClient().post(accounts.server.url(Routes.accountEmail), form: [("email", "x@example.org")])
        #expect(anonymous.status == 401)
        #expect(try user(accounts)?.email == Interactive.email)
        #expect(!(try events(accounts)).contains("email_change_requested"))
    }
}
