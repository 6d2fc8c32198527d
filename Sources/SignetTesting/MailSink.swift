import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real SMTP server for a test: aiosmtpd (PyPI, `make pydeps`) on `127.0.0.1` and a port it
/// binds itself, run from `scripts/testing/mail_sink.py`. Every message it accepts is written to
/// its folder; `waitForMessage` reads them in order.
public final class MailSink: Sendable {
    /// The port it listens on (127.0.0.1).
    public var port: Int { service.port }
    /// `smtp://127.0.0.1:PORT`.
    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// The folder the sink writes `<n>.eml` and `<n>.json` to (a browser script reads mail there).
    public var folder: String { service.folder?.path ?? "" }
    /// The process, and the folder it writes each message to.
    private let service: HelperService

    private init(service: HelperService) { self.service = service }

    /// One message as the server received it.
    public struct Message: Sendable {
        /// The envelope sender (`MAIL FROM`).
        public let envelopeFrom: String
        /// The envelope recipients (`RCPT TO`).
        public let envelopeTo: [String]
        /// Whether the session was under TLS (STARTTLS).
        public let tls: Bool
        /// The user that authenticated, if any.
        public let user: String?
        /// The message bytes (RFC 5322), as sent.
        public let raw: [UInt8]
    }

    /// Starts the server.
    ///
    /// - Parameters:
    ///   - tls: a certificate and key (PEM files) to offer STARTTLS with.
    ///   - requireSTARTTLS: refuse mail until STARTTLS is done.
    ///   - auth: require `AUTH` with this user and password.
    ///   - rejectRecipients: recipients refused at `RCPT TO` with the given reply code.
    public static func start(tls: (certificate: String, key: String)? = nil, requireSTARTTLS: Bool = false,
                             auth: (user: String, password: String)? = nil,
                             rejectRecipients: [String: Int] = [:]) async throws -> MailSink {
        try RealPart.aiosmtpd.use()
        let folder = try TemporaryDirectory(prefix: "mail-sink")
        var arguments = [PackagePaths.packageRoot.appendingPathComponent("scripts/testing/mail_sink.py").path, folder.path]
        if let tls { arguments += ["--tls-cert", tls.certificate, "--tls-key", tls.key] }
        if requireSTARTTLS { arguments.append("--require-starttls") }
        if let auth { arguments += ["--auth", "\(auth.user):\(auth.password)"] }
        for (address, code) in rejectRecipients.sorted(by: { $0.key < $1.key }) { arguments += ["--reject-rcpt", "\(address):\(code)"] }
        let process = try BackgroundProcess(PackagePaths.python, arguments, environment: ["PYTHONUNBUFFERED": "1"])
        do {
            return MailSink(service: try await HelperService.start(announcing: process, seconds: 30, folder: folder))
        } catch let failure as HelperService.StartFailure {
            throw TestingError("the mail sink did not start: \(failure.stderr)")
        }
    }

    /// The messages received so far, in order.
    public func messages() -> [Message] {
        var found: [Message] = []
        guard let folder = service.folder else { return found }
        for index in 1... {
            let base = folder.appending(String(index))
            guard let meta = FileManager.default.contents(atPath: base + ".json"),
                  let object = try? JSONSerialization.jsonObject(with: meta) as? [String: Any],
                  let raw = FileManager.default.contents(atPath: base + ".eml") else { break }
            found.append(Message(envelopeFrom: object["mail_from"] as? String ?? "", envelopeTo: object["rcpt_tos"] as? [String] ?? [],
                                 tls: object["tls"] as? Bool ?? false, user: object["user"] as? String, raw: Array(raw)))
        }
        return found
    }

    /// Waits (at most `seconds`) until at least `count` messages have arrived, and returns them all.
    public func waitForMessages(_ count: Int = 1, seconds: Double = 30) async throws -> [Message] {
        var found: [Message] = []
        _ = await Polling.wait(seconds: seconds) {
            found = messages()
            return found.count >= count
        }
        guard found.count >= count else {
            throw TestingError("the mail sink has \(found.count) message(s) after \(seconds) s, expected \(count); server errors: \(service.process.stderr.suffix(1000))")
        }
        return found
    }

    /// Stops the server.
    public func stop() async { await service.stop() }
}

extension MailSink.Message {
    /// What a mail reader shows, read by Python's own `email` parser (`scripts/testing/parse_mail.py`):
    /// an independent check of the rendering.
    public struct Parsed: Sendable, Decodable {
        public let fromName: String
        public let from: String
        public let to: String
        public let subject: String
        public let date: String
        public let messageID: String
        public let autoSubmitted: String
        public let contentType: String
        public let text: String?
        public let html: String?
        public let defects: [String]

        enum CodingKeys: String, CodingKey {
            case fromName = "from_name", from, to, subject, date, messageID = "message_id", autoSubmitted = "auto_submitted"
            case contentType = "content_type", text, html, defects
        }
    }

    /// The message read by Python's `email` package.
    public func parsed() throws -> Parsed {
        let script = PackagePaths.packageRoot.appendingPathComponent("scripts/testing/parse_mail.py").path
        let result = try Subprocess.runBlocking(PackagePaths.python, [script], stdin: raw)
        guard result.succeeded else { throw TestingError("parse_mail.py failed: \(result.stderr.suffix(1000))") }
        return try JSONDecoder().decode(Parsed.self, from: Data(result.stdout.utf8))
    }
}
