import SignetCore
import SignetMacros

/// A client declared in the `clients` array of `signet.json`. At start-up it is written to the
/// store (its secret hashed), so the CLI, the store and the file agree.
@MemberwiseInit
public struct ConfiguredClient: Sendable, Equatable {
    /// The client as declared.
    public var spec: ClientSpec
    /// Where the secret is, for confidential clients; never the secret itself.
    public var secret: SecretReference?
}
