import Foundation
import SignetClientCore
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The account mails are written in the language of the request that made them (its
/// `Accept-Language`, the pages' rule), with the words from the same catalogs as the pages:
/// subject, text and HTML, read from the real SMTP sink.
@Suite(.endToEndLimit, .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct LocalizedMailEndToEndTests {
    static let german: HTTPHeaders = ["Accept-Language": "de-CH, en;q=0.5"]

    @Test func aGermanSignUpGetsAGermanVerificationMailWhoseCodeWorks() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser(preferences: Self.german)
        let pkce = PKCEPair.generate()
        let codePage = try await accounts.signUp(browser, pkce: pkce, email: "bea@example.com")
        #expect(codePage.status == 200 && codePage.url.path == Routes.emailCode)
        let mail = try await accounts.mail(1)
        #expect(mail.defects == [])
        #expect(mail.subject == "Bestätigen Sie Ihre E-Mail-Adresse für Example ID")
        let text = try #require(mail.text)
        let html = try #require(mail.html)
        #expect(text.hasPrefix("Geben Sie diesen Code ein, um Ihre E-Mail-Adresse für Example ID zu bestätigen. Er gilt 10 Minuten."))
        #expect(text.contains("Wenn Sie kein Konto angelegt haben"))
        #expect(!text.contains("Enter this code") && !html.contains("Enter this code"))
        #expect(html.contains("<html lang=\"de\">") && html.contains(">E-Mail-Adresse bestätigen</a>"))
        // The German button's link and the code work as the English ones do.
        let link = try Accounts.link("E-Mail-Adresse bestätigen", in: mail)
        #expect(link.absoluteString.hasPrefix(accounts.server.issuer + Routes.emailLink + "?token=sgl_"))
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": try Accounts.code(in: mail)])
        #expect(try done.requireRedirect().query()["code"] != nil)
    }

    @Test func theLanguageFollowsEachRequestNotTheAccount() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        // A German sign-up for an address that has an account: the "already" mail, in German;
        // then "Forgot password?" for the same account in English and in German, and for an
        // unknown address in German. (The sink may receive them in any order.)
        _ = try await accounts.signUp(FormBrowser(preferences: Self.german), pkce: PKCEPair.generate(), email: Interactive.email,
                                      password: "someone else's try")
        let asks: [(HTTPHeaders, String)] = [([:], Interactive.email), (Self.german, Interactive.email), (Self.german, "nobody@example.com")]
        for (preferences, email) in asks {
            let browser = FormBrowser(preferences: preferences)
            let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
            _ = try await browser.open(accounts.server.url(Routes.passwordForgot, query: [("request", handle)]))
            let sent = try await browser.submit(formWithAction: Routes.passwordForgot, fields: ["email": email])
            #expect(sent.status == 200 && sent.url.path == Routes.emailCode)
        }
        let mails = try await accounts.sink.waitForMessages(4).map { try $0.parsed() }
        func mail(_ subject: String) throws -> MailSink.Message.Parsed { try #require(mails.first { $0.subject == subject }, "no mail \(subject)") }
        let exists = try mail("Sie haben bereits ein Konto bei Example ID")
        #expect(exists.to == Interactive.email && exists.html?.contains("<html lang=\"de\">") == true)
        _ = try Accounts.link("Passwort zurücksetzen", in: exists)
        _ = try Accounts.link("Anmelden", in: exists)
        let english = try mail("Reset your Example ID password")
        #expect(english.to == Interactive.email && english.html?.contains("<html lang=\"en\">") == true)
        let german = try mail("Setzen Sie Ihr Passwort für Example ID zurück")
        #expect(german.to == Interactive.email && german.text?.contains("Er gilt 15 Minuten.") == true)
        _ = try Accounts.code(in: german)
        _ = try Accounts.link("Neues Passwort wählen", in: german)
        let unknown = try mail("Zu Ihrer Anmeldung bei Example ID")
        #expect(unknown.to == "nobody@example.com")
        #expect(unknown.text?.contains("kein Konto bei Example ID verwendet sie") == true)
        #expect(Accounts.codeIfAny(in: unknown) == nil)
        _ = try Accounts.link("Konto anlegen", in: unknown)
    }

    @Test func aGermanEmailSignInGetsAGermanCode() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser(preferences: Self.german)
        let handle = try await accounts.signInPage(browser, pkce: PKCEPair.generate())
        _ = try await browser.open(accounts.server.url(Routes.emailSignIn, query: [("request", handle)]))
        let sent = try await browser.submit(formWithAction: Routes.emailSignIn, fields: ["email": Interactive.email])
        #expect(sent.status == 200 && sent.url.path == Routes.emailCode)
        let mail = try await accounts.mail(1)
        #expect(mail.subject == "Ihr Anmeldecode für Example ID")
        _ = try Accounts.link("Anmelden", in: mail)
        let done = try await browser.submit(formWithAction: Routes.emailCode, fields: ["code": try Accounts.code(in: mail)])
        #expect(try done.requireRedirect().query()["code"] != nil)
    }
}
