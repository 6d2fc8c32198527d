import Foundation
import SignetMail
import SignetTesting
import Testing

/// Mail through libcurl to a real SMTP server (aiosmtpd on 127.0.0.1), read back and parsed by
/// Python's own `email` package.
@Suite(.endToEndLimit, .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct SMTPDeliveryTests {
    static let from = try! MailAddress("no-reply@signet.test")
    static let to = try! MailAddress("ada+tag@example.test")

    static func message(subject: String = "Your sign-in code", html: String? = "<p>Code <b>123456</b></p>") -> MailMessage {
        MailMessage(from: from, fromName: "Signet Démo", to: to, subject: subject,
                    text: "Your code is 123456.\n.\nA line that is only a dot, and ünïcödé.", html: html)
    }

    @Test func aMultipartMessageArrivesAsWritten() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let transport = SMTPTransport(endpoint: try SMTPEndpoint(sink.url), ehloName: "signet.test")
        let subject = "Ihr Anmeldecode für Signet — gültig zehn Minuten, bitte nicht weitergeben: ein langer Betreff"
        try transport.send(Self.message(subject: subject))

        let received = try await sink.waitForMessages(1)
        #expect(received.count == 1)
        let mail = received[0]
        #expect(mail.envelopeFrom == "no-reply@signet.test")
        #expect(mail.envelopeTo == ["ada+tag@example.test"])
        #expect(!mail.tls)
        let parsed = try mail.parsed()
        #expect(parsed.defects == [])
        #expect(parsed.fromName == "Signet Démo")
        #expect(parsed.from == "no-reply@signet.test")
        #expect(parsed.to == "ada+tag@example.test")
        #expect(parsed.subject == subject)
        #expect(parsed.contentType == "multipart/alternative")
        #expect(parsed.text == "Your code is 123456.\n.\nA line that is only a dot, and ünïcödé.")
        #expect(parsed.html == "<p>Code <b>123456</b></p>")
        #expect(parsed.autoSubmitted == "auto-generated")
        #expect(parsed.messageID.hasPrefix("<") && parsed.messageID.hasSuffix("@signet.test>"))
        #expect(!parsed.date.isEmpty)
    }

    @Test func aPlainTextMessageHasOneBody() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        try SMTPTransport(endpoint: try SMTPEndpoint(sink.url)).send(Self.message(html: nil))
        let parsed = try #require(try await sink.waitForMessages(1).first).parsed()
        #expect(parsed.contentType == "text/plain")
        #expect(parsed.html == nil)
        #expect(parsed.defects == [])
    }

    @Test func aLineBreakInTheSubjectIsRefusedAndNothingIsSent() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let transport = SMTPTransport(endpoint: try SMTPEndpoint(sink.url))
        #expect(throws: MailError.badHeader) { try transport.send(Self.message(subject: "Hello\r\nBcc: victim@example.test")) }
        var named = Self.message()
        named.fromName = "Signet\nBcc: victim@example.test"
        #expect(throws: MailError.badHeader) { try transport.send(named) }
        // A message sent after them is the first and only one the server sees.
        try transport.send(Self.message())
        let received = try await sink.waitForMessages(1)
        #expect(received.count == 1)
        #expect(try received[0].parsed().subject == "Your sign-in code")
    }

    @Test func startTLSRequiredButNotOfferedSendsNothing() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let transport = SMTPTransport(endpoint: try SMTPEndpoint(sink.url), requireTLS: true)
        let error = try #require(throws: MailError.self) { try transport.send(Self.message()) }
        #expect(error.isTransient)
        #expect(error.reason.contains("libcurl 64"))
        #expect(sink.messages().isEmpty)
    }

    @Test func startTLSWithATrustedCertificateCarriesTheMessage() async throws {
        let directory = try TemporaryDirectory(prefix: "mail-tls")
        defer { directory.remove() }
        let certificate = try TestServer.selfSignedCertificate(host: "127.0.0.1", in: directory)
        let sink = try await MailSink.start(tls: certificate, requireSTARTTLS: true, auth: (user: "signet", password: "s3cret-pass"))
        defer { Task { await sink.stop() } }
        let endpoint = try SMTPEndpoint(sink.url)
        try SMTPTransport(endpoint: endpoint, credentials: SMTPCredentials(username: "signet", password: "s3cret-pass"), caFile: certificate.certificate,
                          requireTLS: true).send(Self.message())
        let received = try await sink.waitForMessages(1)
        #expect(received[0].tls)
        #expect(received[0].user == "signet")

        // The same server with the system trust store: the self-signed certificate is refused.
        let untrusted = try #require(throws: MailError.self) {
            try SMTPTransport(endpoint: endpoint, credentials: SMTPCredentials(username: "signet", password: "s3cret-pass"), requireTLS: true).send(Self.message())
        }
        #expect(untrusted.isTransient)
        // A wrong password: refused at AUTH, worth another try once the operator fixes it.
        let denied = try #require(throws: MailError.self) {
            try SMTPTransport(endpoint: endpoint, credentials: SMTPCredentials(username: "signet", password: "wrong"), caFile: certificate.certificate,
                              requireTLS: true).send(Self.message())
        }
        #expect(denied.isTransient)
        #expect(!denied.reason.contains("wrong"))
        #expect(sink.messages().count == 1)
    }

    @Test func aRefusedRecipientIsFinalForFiveHundredsAndTransientForFourHundreds() async throws {
        let sink = try await MailSink.start(rejectRecipients: ["gone@example.test": 550, "busy@example.test": 451])
        defer { Task { await sink.stop() } }
        let transport = SMTPTransport(endpoint: try SMTPEndpoint(sink.url))
        var gone = Self.message()
        gone.to = try MailAddress("gone@example.test")
        let final = try #require(throws: MailError.self) { try transport.send(gone) }
        #expect(!final.isTransient)
        #expect(final.reason.contains("550"))
        var busy = Self.message()
        busy.to = try MailAddress("busy@example.test")
        let later = try #require(throws: MailError.self) { try transport.send(busy) }
        #expect(later.isTransient)
        #expect(sink.messages().isEmpty)
    }

    @Test func anUnreachableServerIsTransient() async throws {
        // A port nothing listens on any more: the sink's, after it stopped.
        let sink = try await MailSink.start()
        let port = sink.port
        await sink.stop()
        let error = try #require(throws: MailError.self) {
            try SMTPTransport(endpoint: try SMTPEndpoint("smtp://127.0.0.1:\(port)"), timeoutSeconds: 5).send(Self.message())
        }
        #expect(error.isTransient)
    }
}
