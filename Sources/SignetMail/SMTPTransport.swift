import CSignetMail
import Foundation
import SignetCrypto

/// Something that hands a message to a mail server.
public protocol MailTransport: Sendable {
    /// Sends `message`; throws a `MailError` that says whether a later try may succeed.
    func send(_ message: MailMessage) throws(MailError)
}

/// SMTP submission through libcurl (Debian's libcurl4-openssl-dev): STARTTLS or implicit TLS
/// with certificate and host-name checks, TLS 1.2 at least, optional AUTH, bounded in time.
/// Blocking: call it from a thread of its own (the outbox sender), never from a request.
public struct SMTPTransport: MailTransport {
    /// The server.
    public let endpoint: SMTPEndpoint
    /// The AUTH user and password; nil: no AUTH.
    let credentials: SMTPCredentials?
    let caFile: String?
    let requireTLS: Bool
    let ehloName: String
    let timeoutMilliseconds: Int

    /// - Parameters:
    ///   - requireTLS: nil follows the endpoint (STARTTLS required unless loopback); true forces
    ///     STARTTLS on a loopback server too (the tests use it).
    ///   - caFile: a PEM bundle to trust instead of the system store.
    ///   - ehloName: the name Signet gives itself in EHLO (the issuer's host).
    public init(endpoint: SMTPEndpoint, credentials: SMTPCredentials? = nil, caFile: String? = nil,
                requireTLS: Bool? = nil, ehloName: String = "localhost", timeoutSeconds: Double = 30) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.caFile = caFile
        self.requireTLS = requireTLS ?? endpoint.requiresSTARTTLS
        self.ehloName = ehloName
        self.timeoutMilliseconds = Int(timeoutSeconds * 1000)
    }

    /// Renders `message` with the time now and a random Message-ID at the sender's domain, then
    /// sends it.
    public func send(_ message: MailMessage) throws(MailError) {
        let token = Base64URL.encode(SecureRandom.bytes(18))
        let data = try message.rendered(messageID: "\(token)@\(message.from.domain)", date: Date(), boundary: "=_" + token)
        try deliver(data, from: message.from, to: [message.to])
    }

    /// Hands rendered message bytes to the server for the given envelope.
    public func deliver(_ data: [UInt8], from sender: MailAddress, to recipients: [MailAddress]) throws(MailError) {
        var result = signet_smtp_result()
        let url = endpoint.curlURL(ehloName: ehloName)
        let code: Int32 = url.withCString { urlText in
            sender.address.withCString { fromText in
                withCStrings(recipients.map(\.address)) { rcpt in
                    data.withUnsafeBufferPointer { bytes in
                        withOptionalCString(credentials?.username) { user in
                            withOptionalCString(credentials?.password) { secret in
                                withOptionalCString(caFile) { ca in
                                    var request = signet_smtp_request(
                                        url: urlText, mail_from: fromText, rcpt: rcpt.baseAddress, rcpt_count: rcpt.count,
                                        message: bytes.baseAddress, message_length: bytes.count, username: user, password: secret,
                                        ca_file: ca, require_tls: requireTLS ? 1 : 0, timeout_ms: timeoutMilliseconds,
                                        connect_timeout_ms: min(timeoutMilliseconds, 10_000))
                                    return signet_smtp_send(&request, &result)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard code != 0 else { return }
        throw Self.failure(curlCode: code, smtpCode: Int(result.smtp_code), text: withUnsafeBytes(of: result.message) {
            String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
        })
    }

    /// A 5xx reply to the envelope or the data is final; everything else (no connection, a
    /// timeout, a 4xx reply, a failed TLS or login set-up, which the operator can fix) is worth
    /// another try. libcurl: 64 = TLS required but not offered, 67 = login denied.
    static func failure(curlCode: Int32, smtpCode: Int, text: String) -> MailError {
        let configuration: Set<Int32> = [64, 67]
        let permanent = (500..<600).contains(smtpCode) && !configuration.contains(curlCode)
        let reply = smtpCode > 0 ? ", SMTP reply \(smtpCode)" : ""
        return MailError("mail not sent: \(text) (libcurl \(curlCode)\(reply))", transient: !permanent)
    }
}

private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

private func withCStrings<T>(_ texts: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = texts.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer(body)
}
