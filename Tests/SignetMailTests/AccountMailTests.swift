import Foundation
import SignetMail
import SignetServer
import SignetTesting
import SignetWire
import Testing

/// Each account mail, in English and in German (the words from the server's catalogs), sent
/// through libcurl to a real SMTP server and read back with Python's `email` package: the product
/// name as sender and in the subject, the code and link in both bodies, hostile values escaped in
/// the HTML, nothing secret in the subject, the HTML's `lang` the mail's language.
@Suite(.endToEndLimit, .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct AccountMailTests {
    static let brand = AccountMail.Brand(productName: "Acme <Notes>", accentColor: "#0a7d3b")

    @Test(arguments: PageLanguage.allCases) func everyKindArrivesReadable(language: PageLanguage) async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let transport = SMTPTransport(endpoint: try SMTPEndpoint(sink.url))
        let from = try MailAddress("no-reply@acme.test")
        let to = try MailAddress("ada@example.test")
        let link = "https://id.acme.test/verify?t=abc&x=\"><script>"
        let kinds: [AccountMail] = [
            .verifyEmail(code: "482913", link: link, minutes: 10), .resetPassword(code: "550123", link: link, minutes: 10),
            .signInCode(code: "771204", link: link, minutes: 10), .accountExists(signInLink: link, resetLink: link + "2"),
            .accountDeleted, .emailChanged(newAddressHint: "a***@example.org"), .noAccount(signUpLink: link + "3"),
            .confirmNewEmail(code: "093311", link: link, minutes: 10), .emailInUse(signInLink: link + "4"),
            .organizationInvitation(organization: "Beta <Ltd>", role: "admin", link: link + "4", days: 7),
            .organizationSignIn(organization: "Gamma <AG>", connection: "Entra", signInLink: link + "5"),
            .passkeyAdded(manageLink: link + "6"), .totpLocked(failures: 20),
        ]
        for kind in kinds { try transport.send(kind.message(brand: Self.brand, words: .catalog(language), from: from, to: to)) }
        let received = try await sink.waitForMessages(kinds.count)
        for (kind, mail) in zip(kinds, received) {
            let parsed = try mail.parsed()
            #expect(parsed.defects == [], "\(kind)")
            #expect(parsed.fromName == "Acme <Notes>")
            #expect(parsed.subject.contains("Acme <Notes>"))
            let text = try #require(parsed.text)
            let html = try #require(parsed.html)
            #expect(!html.contains("<script>") && !html.contains("<Notes>"), "\(kind)")
            #expect(html.contains("Acme &lt;Notes&gt;"))
            #expect(html.contains("<html lang=\"\(language.rawValue)\">"), "\(kind)")
            // Every word comes from the catalog in this language: the English and German subjects differ.
            let english = kind.message(brand: Self.brand, words: .catalog(.en), from: from, to: to)
            #expect((parsed.subject == english.subject) == (language == .en), "\(kind)")
            switch kind {
            case .verifyEmail(let code, _, _), .resetPassword(let code, _, _), .signInCode(let code, _, _), .confirmNewEmail(let code, _, _):
                #expect(text.contains(code) && html.contains(code))
                #expect(!parsed.subject.contains(code))
                #expect(text.contains(link))
                #expect(html.contains("href=\"https://id.acme.test/verify?t=abc&amp;x=&quot;&gt;&lt;script&gt;\""))
                #expect(html.contains("background:#0a7d3b"))
            case .accountExists:
                #expect(text.contains(link) && text.contains(link + "2"))
            case .noAccount:
                #expect(text.contains(link + "3") && !text.contains(link + "2"))
            case .emailInUse:
                #expect(text.contains(link + "4") && Self.digits(text) == nil)
            case .accountDeleted, .emailChanged, .totpLocked:
                #expect(!text.contains("http"))
            case .organizationInvitation:
                #expect(text.contains(link + "4") && text.contains("Beta <Ltd>") && text.contains(language == .de ? "7 Tage" : "7 days"))
                #expect(html.contains("Beta &lt;Ltd&gt;") && !html.contains("<Ltd>"))
            case .organizationSignIn:
                #expect(text.contains(link + "5") && text.contains("Gamma <AG>") && text.contains("Entra") && Self.digits(text) == nil)
                #expect(html.contains("Gamma &lt;AG&gt;") && !html.contains("<AG>"))
            case .passkeyAdded:
                #expect(text.contains(link + "6") && Self.digits(text) == nil)
            }
        }
    }

    /// A run of six digits in `text`, if any.
    static func digits(_ text: String) -> String? {
        text.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init)
    }

    @Test func theOldAddressIsToldOnlyAHintOfTheNewOne() throws {
        #expect(AccountMail.addressHint("new.alice@example.org") == "n…@example.org")
        #expect(AccountMail.addressHint("broken") == "…")
        let mail = AccountMail.emailChanged(newAddressHint: AccountMail.addressHint("new.alice@example.org"))
            .message(brand: Self.brand, words: .catalog(.en), from: try MailAddress("a@b.test"), to: try MailAddress("c@d.test"))
        #expect(mail.text.contains("n…@example.org") && !mail.text.contains("new.alice"))
    }

    @Test func aColourThatIsNotHexFallsBack() {
        #expect(AccountMail.Brand(productName: "x", accentColor: "red;background:url(x)").accentColor == "#2456c9")
        #expect(AccountMail.Brand(productName: "x", accentColor: "#A1b2C3").accentColor == "#a1b2c3")
    }
}
