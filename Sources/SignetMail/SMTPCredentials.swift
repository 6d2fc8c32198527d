import SignetMacros

/// The user name and password of SMTP AUTH (RFC 4954). The password is a secret: `description`
/// redacts it, so a transport that is printed shows only the user name.
@MemberwiseInit
public struct SMTPCredentials: Sendable, CustomStringConvertible {
    /// The user name.
    public let username: String
    /// The password.
    let password: String

    /// The user name, with the password redacted.
    public var description: String { "SMTPCredentials(username: \(username), password: <redacted>)" }
}
