import SignetCore

/// A client declared in the `clients` array of `signet.json`. At start-up it is written to the
/// store (its secret hashed), so the CLI, the store and the file agree.
public struct ConfiguredClient: Sendable, Equatable {
    /// The client as declared.
    public var spec: ClientSpec
    /// Where the secret is, for confidential clients; never the secret itself.
    public var secret: SecretReference?

    /// Creates an entry.
    public init(spec: ClientSpec, secret: SecretReference?) {
        self.spec = spec
        self.secret = secret
    }
}
