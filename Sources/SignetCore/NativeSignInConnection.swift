import SignetMacros

/// What native ID-token sign-in needs to know about a configured upstream connection.
/// (SignetCore cannot see SignetFederation's `Connection`; SignetServer maps one to the other.)
@MemberwiseInit
public struct NativeSignInConnection: Sendable, Equatable {
    /// How the provider carries the app's nonce in its ID token.
    public enum NonceForm: Sendable, Equatable {
        /// Google / generic OIDC: the token's `nonce` IS the value the app passed (Signet's nonce).
        case raw
        /// Sign in with Apple: apps pass SHA-256 (lowercase hex) of the raw nonce to Apple, which
        /// puts that hash in the token; the app sends the raw nonce to Signet beside the token.
        case sha256Hex
    }

    /// The connection id (`connection` parameter).
    public var id: String
    /// The nonce form of the provider.
    public var nonceForm: NonceForm
    /// A disabled connection refuses everything.
    public var enabled: Bool
    /// Whether native ID-token sign-in is allowed (`native_sign_in`).
    public var nativeSignIn: Bool
    /// Whether a verified email may link to an existing account (`allow_linking`).
    public var allowLinking: Bool
}
