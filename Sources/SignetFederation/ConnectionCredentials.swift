import SignetMacros

/// The secrets of a connection, resolved from their references at start-up. `description`
/// never shows them.
@MemberwiseInit
public struct ConnectionCredentials: Sendable, CustomStringConvertible {
    /// The client secret at the provider (not for Apple).
    public var clientSecret: String? = nil
    /// Apple: the PKCS #8 PEM of the Sign in with Apple key.
    public var applePrivateKeyPEM: String? = nil

    /// Says which secrets are present, never their values.
    public var description: String {
        "ConnectionCredentials(clientSecret: \(clientSecret == nil ? "nil" : "<redacted>"), applePrivateKey: \(applePrivateKeyPEM == nil ? "nil" : "<redacted>"))"
    }
}
