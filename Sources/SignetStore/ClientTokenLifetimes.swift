import SignetMacros

/// A client's own token lifetimes, in seconds, each overriding the server's `lifetimes.*`
/// setting for that client; nil: the server's. One value from the administrator's `ClientSpec`
/// through the stored `ClientRecord` to the parsed `Client`.
@MemberwiseInit
public struct ClientTokenLifetimes: Sendable, Equatable {
    /// Access-token lifetime (30 to 86400).
    public var accessToken: Int? = nil
    /// Refresh-token lifetime (60 up to the family lifetime).
    public var refreshToken: Int? = nil
    /// ID-token lifetime (30 to 86400).
    public var idToken: Int? = nil
}
