/// The secrets of a connection, resolved from their references at start-up. `description`
/// never shows them.
public struct ConnectionCredentials: Sendable, CustomStringConvertible {
    /// The client secret at the provider (not for Apple).
    public var clientSecret: String?
    /// Apple: the PKCS #8 PEM of the Sign in with Apple key.
    public var applePrivateKeyPEM: String?

    /// Creates the value.
    public init(clientSecret: String? = nil, applePrivateKeyPEM: String? = nil) {
        self.clientSecret = clientSecret
        self.applePrivateKeyPEM = applePrivateKeyPEM
    }

    /// Says which secrets are present, never their values.
    public var description: String {
        "ConnectionCredentials(clientSecret: \(clientSecret == nil ? "nil" : "<redacted>"), applePrivateKey: \(applePrivateKeyPEM == nil ? "nil" : "<redacted>"))"
    }
}
