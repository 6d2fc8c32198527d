import Foundation
import SignetMail

/// How `signet serve` sends mail, made from the `mail` settings.
public struct MailDelivery: Sendable {
    /// The SMTP submission.
    public let transport: SMTPTransport
    /// The sender address.
    public let from: MailAddress
    /// The sender name.
    public let fromName: String
    /// How long a claimed message is held: longer than one submission may take.
    public let lease: TimeInterval
}

extension SignetConfiguration {
    /// Whether mail can be sent (`mail.smtp_url` is set): features that need mail ask this.
    public var isMailConfigured: Bool { mail.smtpURL != nil }

    /// The transport and sender the `mail` settings describe, or nil when mail is not configured.
    /// The URL and sender were checked when the file was loaded; the password is read here.
    public func mailDelivery(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MailDelivery? {
        guard let url = mail.smtpURL else { return nil }
        let endpoint: SMTPEndpoint
        let from: MailAddress
        do {
            endpoint = try SMTPEndpoint(url)
            from = try MailAddress(mail.from ?? "")
        } catch {
            throw ConfigurationIssue(path: "mail", message: error.reason)
        }
        var password: String?
        if let reference = mail.password {
            do {
                password = String(decoding: try reference.resolve(relativeTo: dataDirectory, environment: environment), as: UTF8.self)
            } catch {
                throw ConfigurationIssue(path: "mail.password", message: error.message)
            }
        }
        let caFile = mail.caFile.map { $0.hasPrefix("/") ? $0 : (dataDirectory as NSString).appendingPathComponent($0) }
        let ehloName = URLComponents(string: issuer)?.host ?? "localhost"
        // AUTH goes with a user name; the loader requires mail.password beside it.
        let credentials = mail.username.map { SMTPCredentials(username: $0, password: password ?? "") }
        let transport = SMTPTransport(endpoint: endpoint, credentials: credentials, caFile: caFile,
                                      ehloName: ehloName, timeoutSeconds: Double(mail.timeoutSeconds))
        return MailDelivery(transport: transport, from: from, fromName: mail.fromName ?? branding.productName,
                            lease: TimeInterval(2 * mail.timeoutSeconds + 60))
    }
}
