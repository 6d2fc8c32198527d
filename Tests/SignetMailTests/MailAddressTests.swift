import Foundation
import SignetMail
import SignetTesting
import Testing

@Suite(.endToEndLimit)
struct MailAddressTests {
    @Test(arguments: ["ada@example.test", "ada+tag@example.test", "a.b-c_d@mail.example.test", "x@[127.0.0.1]".replacingOccurrences(of: "[127.0.0.1]", with: "example.test")])
    func addressesSMTPCarries(_ text: String) throws {
        #expect(try MailAddress(text).address == text)
    }

    @Test(arguments: ["", "ada", "@example.test", "ada@", "ada@example.test\r\nBcc: x@y.test", "ada @example.test", "<ada@example.test>",
                      "ada@@example.test", "a@b@example.test", "ädä@example.test", "ada@exämple.test", "ada@.example.test",
                      "ada@example.test.", "\"ada\"@example.test", String(repeating: "a", count: 65) + "@example.test",
                      "ada@" + String(repeating: "a", count: 250) + ".test"])
    func addressesItRefuses(_ text: String) {
        #expect(throws: MailError.badAddress) { try MailAddress(text) }
    }

    @Test func endpoints() throws {
        let submission = try SMTPEndpoint("smtp://mail.example.test")
        #expect(submission.port == 587 && !submission.implicitTLS && submission.requiresSTARTTLS)
        let implicit = try SMTPEndpoint("smtps://mail.example.test")
        #expect(implicit.port == 465 && implicit.implicitTLS && !implicit.requiresSTARTTLS)
        #expect(try !SMTPEndpoint("smtp://127.0.0.1:2525").requiresSTARTTLS)
        #expect(try !SMTPEndpoint("smtp://localhost:25/").requiresSTARTTLS)
        let six = try SMTPEndpoint("smtp://[::1]:2525")
        #expect(six.host == "::1" && six.port == 2525 && six.isLoopback)
        #expect(try SMTPEndpoint("smtp://127.0.0.2").isLoopback)
        #expect(try !SMTPEndpoint("smtp://127.0.0.1.example.test").isLoopback)
        for bad in ["http://mail.example.test", "smtp://user:pw@mail.example.test", "smtp://mail.example.test/path", "smtp://",
                    "smtp://mail.example.test:0", "smtp://mail.example.test:99999", "smtp://mail.example.test?x=1", "smtp://[::1"] {
            #expect(throws: MailError.self, "\(bad)") { try SMTPEndpoint(bad) }
        }
        let error = try #require(throws: MailError.self) { try SMTPEndpoint("smtp://user:hunter2@mail.example.test") }
        #expect(!error.reason.contains("hunter2"))
    }

    @Test func renderingIsCRLFWithEncodedWordsAndShortLines() throws {
        let message = MailMessage(from: try MailAddress("no-reply@signet.test"), fromName: "Zoë's \"Signet\"",
                                  to: try MailAddress("ada@example.test"), subject: "Ünïcödé " + String(repeating: "x", count: 200),
                                  text: String(repeating: "long line ", count: 100), html: "<p>hi</p>")
        let bytes = try message.rendered(messageID: "id@signet.test", date: Date(timeIntervalSince1970: 1_796_126_400), boundary: "=_b")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
        #expect(text.contains("Date: Tue, 01 Dec 2026 12:00:00 +0000\r\n"))
        #expect(text.contains("Message-ID: <id@signet.test>\r\n"))
        #expect(text.contains("boundary=\"=_b\""))
    }
}
