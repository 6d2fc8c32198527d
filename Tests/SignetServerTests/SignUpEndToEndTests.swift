import Foundation
import SignetClientCore
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Sign-up and email verification over real HTTP, with the mail read from a real SMTP server.
@Suite(.endToEndLimit) struct SignUpEndToEndTests {
    @Test func signUpThenTheMailedCodeConfirmsTheAddressAndContinuesToTheClient() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let codePage = try await accounts.signUp(browser, pkce: pkce, email: " Bea@Example.COM ")
        #expect(codePage.status == 200 && codePage.url.path == Routes.emailCode)
        #expect(codePage.response.text.contains("We are sending a 6-digit code to <strong>bea@example.com</strong>"))
        expectHardened(codePage.response)
        let user = try #require(try accounts.server.environment.storage.users.user(email: "bea@example.com"))
        #expect(!user.emailVerified && user.name == "Bea")

        let mail = try await accounts.mail(1)
        #expect(mail.to.contains("bea@example.com") && mail.subject == "Confirm your email for Example ID")
        let code = try Accounts.code(in: mail)
        let link = try Accounts.link("Confirm my email", in: mail)
        #expect(link.absoluteString.hasPrefix(accounts.server.issuer + Routes.emailLink + "?token=sgl_"))

        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        let redirect = try done.requireRedirect()
        let authorizationCode = try #require(redirect.query()["code"])
        let tokens = try await accounts.app.redeem(code: authorizationCode, pkce: pkce)
        #expect(tokens.status == 200)
        let claims = try Accounts.idTokenClaims(tokens)
        #expect(claims["sub"]?.stringValue == user.id)
        #expect(claims["email_verified"] == .bool(true))
        #expect(claims["amr"] == .array([.string("pwd")]))
        #expect(try accounts.server.environment.storage.users.user(id: user.id)?.emailVerified == true)

        // The code and the link are single use.
        let replay = try await FormBrowser(cookies: browser.cookies).open(codePage.url)
        #expect(replay.status == 410)
        let reused = try await browser.open(link)
        #expect(reused.status == 410 && reused.response.text.contains("no longer works"))
        // The new account signs in with its password.
        let again = FormBrowser()
        _ = try await again.open(accounts.app.authorizeURL(pkce: PKCEPair.generate()))
        #expect(try await accounts.app.submitCredentials(again, email: "BEA@example.com", password: "a fine new passphrase").redirect != nil)
    }

    @Test func anExistingAddressGetsTheSameAnswerAndAnAlreadyRegisteredMail() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let known = FormBrowser(), unknown = FormBrowser()
        let knownPage = try await accounts.signUp(known, pkce: PKCEPair.generate(), email: Interactive.email, password: "someone else's try")
        let unknownPage = try await accounts.signUp(unknown, pkce: PKCEPair.generate(), email: "zed@example.com", password: "someone else's try")
        #expect(knownPage.status == 200 && unknownPage.status == 200)
        #expect(knownPage.history.map(\.path) == unknownPage.history.map(\.path))
        // Byte for byte, once the address typed, the challenge id and the CSRF field are blanked.
        #expect(try blankedCodePage(knownPage, Interactive.email) == blankedCodePage(unknownPage, "zed@example.com"))
        expectSameHeaders(knownPage.response, unknownPage.response)
        let mails = try await accounts.sink.waitForMessages(2).map { try $0.parsed() }
        let toKnown = try #require(mails.first { $0.to.contains(Interactive.email) })
        #expect(toKnown.subject == "You already have a Example ID account")
        #expect(Accounts.codeIfAny(in: toKnown) == nil)
        // The owner's mailbox gets nothing of the requester's sign-in (its pending request handle).
        #expect(toKnown.text?.contains("request=") == false && toKnown.html?.contains("request=") == false, "\(toKnown.text ?? "")")
        // The owner's password is unchanged, and no second account exists.
        #expect(try accounts.server.environment.makeUserService().authenticate(email: Interactive.email, password: Interactive.password) != nil)
        #expect(try accounts.server.environment.storage.users.allUsers().count == 2)
        // Whatever code is typed on the page of the known address, nothing happens.
        for _ in 0..<5 { _ = try await known.submit(formWithAction: Routes.emailCode, fields: ["code": "123456"]) }
        #expect(known.page?.status == 410)
    }

    /// Both paths store one audit event with their challenge and mail (one transaction each, so
    /// the same number of commits): `sign_up` for the new account, `sign_up_existing` for the
    /// account that already had the address. Neither holds the address.
    @Test func bothPathsRecordOneSignUpEventAndTheKnownOneNamesTheExistingAccount() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let audit = accounts.server.environment.storage.audit
        let owner = try #require(try accounts.server.environment.storage.users.user(email: Interactive.email))
        _ = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: Interactive.email, password: "someone else's try")
        _ = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "zed@example.com", password: "someone else's try")
        let created = try #require(try accounts.server.environment.storage.users.user(email: "zed@example.com"))
        let events = try audit.recentAudit(limit: 100).filter { $0.event.hasPrefix("sign_up") }
        #expect(events.map(\.event).sorted() == ["sign_up", "sign_up_existing"])
        #expect(events.first { $0.event == "sign_up_existing" }?.subjectID == owner.id)
        #expect(events.first { $0.event == "sign_up" }?.subjectID == created.id)
        for event in events {
            #expect(event.address == "127.0.0.1" && event.reason == nil && event.detail == "{}")
            #expect(!event.detail.contains("@") && event.subjectID?.contains("@") == false)
        }
        _ = try await accounts.sink.waitForMessages(2)
    }

    @Test func wrongCodesCountFiveAttemptsThenTheChallengeIsDead() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let codePage = try await accounts.signUp(browser, pkce: PKCEPair.generate(), email: "guess@example.com")
        let code = try Accounts.code(in: try await accounts.mail(1))
        let wrong = code == "000000" ? "111111" : "000000"
        let malformed = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": "12ab"])
        #expect(malformed.status == 400 && malformed.response.text.contains("Enter the 6 digits"))
        for left in (1...4).reversed() {
            let page = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": wrong])
            #expect(page.status == 400 && page.response.text.contains("Attempts left: \(left)"))
        }
        let fifth = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": wrong])
        #expect(fifth.status == 410)
        // The right code, and the link, no longer work.
        let page = try await browser.open(accounts.server.url(Routes.emailCode, query: [("challenge", try Accounts.challengeID(codePage))]))
        #expect(page.status == 410)
        let link = try Accounts.link("Confirm my email", in: try await accounts.mail(1))
        #expect(try await browser.open(link).status == 410)
        #expect(try accounts.server.environment.storage.users.user(email: "guess@example.com")?.emailVerified == false)
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        _ = try await accounts.signUp(browser, pkce: PKCEPair.generate(), email: "late@example.com")
        let code = try Accounts.code(in: try await accounts.mail(1))
        accounts.server.clock.advance(by: 600)
        let late = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        #expect(late.status == 410 && late.response.text.contains("no longer works"))
        #expect(try accounts.server.environment.storage.users.user(email: "late@example.com")?.emailVerified == false)
    }

    @Test func theLinkConfirmsOnlyAfterItsButtonAndOnlyOnceWhenRaced() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        _ = try await accounts.signUp(browser, pkce: PKCEPair.generate(), email: "link@example.com")
        let mail = try await accounts.mail(1)
        let link = try Accounts.link("Confirm my email", in: mail)
        let code = try Accounts.code(in: mail)
        // Opening the link (a mail scanner does) changes nothing.
        let phone = FormBrowser()
        let page = try await phone.open(link)
        #expect(page.status == 200 && page.response.text.contains("Confirm my email"))
        #expect(try accounts.server.environment.storage.users.user(email: "link@example.com")?.emailVerified == false)
        // The phone's button and the first browser's code race: exactly one wins.
        let phoneForm = try #require(page.forms.first)
        let codeForm = try #require(browser.forms.first { $0.action.path == Routes.emailCode })
        async let byLink = phone.submit(phoneForm)
        async let byCode = browser.submit(codeForm, fields: ["code": code])
        let (linkOutcome, codeOutcome) = try await (byLink, byCode)
        let wins = [linkOutcome.status == 200 && linkOutcome.response.text.contains("Your email is confirmed"),
                    codeOutcome.redirect != nil].filter { $0 }.count
        #expect(wins == 1, "link \(linkOutcome.status), code \(codeOutcome.status)")
        #expect([linkOutcome.status, codeOutcome.status].contains(410) || linkOutcome.status == 410 || codeOutcome.status == 410)
        #expect(try accounts.server.environment.storage.users.user(email: "link@example.com")?.emailVerified == true)
    }

    @Test func badAddressesAndPasswordsAreRefusedOnThePageAndStoreNothing() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let cases: [(email: String, password: String, message: String)] = [
            (String(repeating: "a", count: 250) + "@example.com", "a fine new passphrase", "The email address is too long."),
            ("not-an-address", "a fine new passphrase", "Not a valid email address."),
            ("a@b@example.com", "a fine new passphrase", "Not a valid email address."),
            ("jürgen@münchen.de", "a fine new passphrase", "The part before the @ must be ASCII"),
            ("ok@xn--zz.de", "a fine new passphrase", "The part after the @ is not a valid domain."),
            ("ok@☃.com", "a fine new passphrase", "The part after the @ is not a valid domain."),
            ("short@example.com", "short", "at least 8 characters"),
            ("common@example.com", "password123", "most commonly used"),
        ]
        for (email, password, message) in cases {
            let outcome = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: email, password: password)
            #expect(outcome.status == 400, "\(email)")
            #expect(outcome.response.text.contains(message), "\(email): \(outcome.response.text)")
            expectHardened(outcome.response)
        }
        // An A-label domain is an ordinary ASCII domain.
        let idn = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "ok@xn--mnchen-3ya.de")
        #expect(idn.status == 200)
        #expect(try accounts.server.environment.storage.users.allUsers().map(\.email).sorted() == [Interactive.email, "ok@xn--mnchen-3ya.de"])
    }

    @Test func anInternationalDomainIsOneAccountWithItsALabel() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let first = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "User@BÜCHER.example")
        #expect(first.status == 200 && first.response.text.contains("<strong>user@xn--bcher-kva.example</strong>"))
        let mail = try await accounts.mail(1)
        #expect(mail.to.contains("user@xn--bcher-kva.example") && Accounts.codeIfAny(in: mail) != nil)
        // The same address in its A-label form is the same account: the "already" mail.
        let again = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "user@xn--bcher-kva.example")
        #expect(again.status == 200)
        let second = try await accounts.mail(2)
        #expect(second.to.contains("user@xn--bcher-kva.example") && second.subject == "You already have a Example ID account")
        #expect(try accounts.server.environment.storage.users.allUsers().map(\.email).sorted() == [Interactive.email, "user@xn--bcher-kva.example"])
        // Either spelling signs in.
        for spelling in ["user@bücher.example", "USER@xn--BCHER-KVA.example"] {
            let browser = FormBrowser()
            _ = try await browser.open(accounts.app.authorizeURL(pkce: PKCEPair.generate()))
            #expect(try await accounts.app.submitCredentials(browser, email: spelling, password: "a fine new passphrase").redirect != nil, "\(spelling)")
        }
    }

    @Test func validationMessagesFollowAcceptLanguage() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let german: HTTPHeaders = ["Accept-Language": "de-DE,de;q=0.9,en;q=0.5"]
        // Sign-up.
        let browser = FormBrowser(preferences: german)
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        _ = try await browser.open(accounts.server.url(Routes.signUp, query: [("request", handle)]))
        let signUp = try await browser.submit(formWithAction: Routes.signUp, fields: ["email": "ok@☃.com", "password": "a fine new passphrase"])
        #expect(signUp.status == 400 && signUp.response.text.contains("Der Teil nach dem @ ist keine gültige Domain."))
        let weak = try await browser.submit(formWithAction: Routes.signUp, fields: ["email": "ok@example.com", "password": "short"])
        #expect(weak.status == 400 && weak.response.text.contains("Das Passwort muss mindestens 8 Zeichen haben."))
        // Forgot password.
        let forgot = FormBrowser(preferences: german)
        _ = try await forgot.open(accounts.server.url(Routes.passwordForgot))
        let address = try await forgot.submit(formWithAction: Routes.passwordForgot, fields: ["email": "not-an-address"])
        #expect(address.status == 400 && address.response.text.contains("Keine gültige E-Mail-Adresse."))
        // The reset's new password.
        _ = try await forgot.submit(formWithAction: Routes.passwordForgot, fields: ["email": Interactive.email])
        let code = try Accounts.code(in: try await accounts.mail(1))
        let common = try await forgot.submit(formWithAction: Routes.emailCode, fields: ["code": code, "password": "password123"])
        #expect(common.status == 400 && common.response.text.contains("Dieses Passwort gehört zu den am häufigsten verwendeten"))
        #expect(!common.response.text.contains("most commonly used"))
    }

    @Test func theShowPasswordButtonWorksWithoutScriptAndCreatesNothing() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        _ = try await browser.open(accounts.server.url(Routes.signUp, query: [("request", handle)]))
        #expect(browser.page?.text.contains("type=\"password\"") == true)
        let shown = try await browser.submit(formWithAction: Routes.signUp, fields: ["email": "see@example.com", "password": "visible words"],
                                             pressing: "action")
        #expect(shown.status == 200)
        #expect(shown.response.text.contains("id=\"password\" name=\"password\" type=\"text\""))
        #expect(shown.response.text.contains("value=\"visible words\"") && shown.response.text.contains("Hide password"))
        #expect(try accounts.server.environment.storage.users.user(email: "see@example.com") == nil)
        #expect(accounts.sink.messages().isEmpty)
    }

    @Test func signUpOffHasNoLinkAndNoPage() async throws {
        let accounts = try await Accounts.start { $0.accounts.signUp = .off }
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        #expect(browser.page?.text.contains("/signup") == false)
        let page = try await HTTPTestClient().get(accounts.server.url(Routes.signUp, query: [("request", handle)]))
        #expect(page.status == 404)
        let post = try await HTTPTestClient().post(accounts.server.url(Routes.signUp), form: [("email", "x@example.com"), ("password", "a fine new passphrase")])
        #expect(post.status == 404)
        #expect(try accounts.server.environment.storage.users.user(email: "x@example.com") == nil)
    }

    @Test func signUpByDomainRefusesOtherDomains() async throws {
        let accounts = try await Accounts.start {
            $0.accounts.signUp = .domains
            $0.accounts.signUpDomains = ["corp.example"]
        }
        defer { Task { await accounts.stop() } }
        let refused = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "me@elsewhere.example")
        #expect(refused.status == 400 && refused.response.text.contains("corp.example"))
        let sub = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "me@sub.corp.example")
        #expect(sub.status == 400)
        let allowed = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "me@corp.example")
        #expect(allowed.status == 200 && allowed.url.path == Routes.emailCode)
    }

    @Test func requireVerifiedEmailSendsACodeInsteadOfSigningIn() async throws {
        let accounts = try await Accounts.start { $0.accounts.requireVerifiedEmail = true }
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await accounts.signInPage(browser, pkce: pkce)
        // A wrong password keeps the one generic message.
        let wrong = try await accounts.app.submitCredentials(browser, password: "not the password")
        #expect(wrong.response.text.contains("The email or password is incorrect."))
        let right = try await accounts.app.submitCredentials(browser)
        #expect(right.status == 200 && right.url.path == Routes.emailCode)
        #expect(Interactive.sessionCookie(browser) == nil)
        let code = try Accounts.code(in: try await accounts.mail(1))
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": code])
        let redirect = try done.requireRedirect()
        let tokens = try await accounts.app.redeem(code: try #require(redirect.query()["code"]), pkce: pkce)
        #expect(try Accounts.idTokenClaims(tokens)["email_verified"] == .bool(true))
    }

    @Test func whenTheMailServerIsDownTheSignUpSucceedsAndTheMailWaits() async throws {
        let accounts = try await Accounts.start(sinkDown: true)
        defer { Task { await accounts.stop() } }
        let page = try await accounts.signUp(FormBrowser(), pkce: PKCEPair.generate(), email: "patient@example.com")
        #expect(page.status == 200 && page.url.path == Routes.emailCode)
        #expect(page.response.text.contains("it waits in our outbox and is sent as soon as it can be"))
        #expect(try accounts.server.environment.storage.users.user(email: "patient@example.com") != nil)
        let challenge = try #require(try accounts.server.environment.storage.emailChallenges.challenge(id: try Accounts.challengeID(page)))
        #expect(challenge.consumedAt == nil)
        // The mail is in the outbox, pending (the sender fails and reschedules it).
        let pending = try accounts.server.environment.storage.mailOutbox.claimDue(now: accounts.server.clock.now.addingTimeInterval(86_000),
                                                                                    leaseUntil: accounts.server.clock.now.addingTimeInterval(86_100), limit: 10)
        #expect(pending.count == 1)
    }
}

