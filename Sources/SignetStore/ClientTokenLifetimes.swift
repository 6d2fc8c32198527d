/// A client's own token lifetimes, in seconds, each overriding the server's `lifetimes.*`
/// setting for that client; nil: the server's. One value from the administrator's `ClientSpec`
/// through the stored `ClientRecord` to the parsed `Client`.
public struct ClientTokenLifetimes: Sendable, Equatable {
    /// Access-token lifetime (30 to 86400).
    public var accessToken: Int?
    /// Refresh-token lifetime (60 up to the family lifetime).
    public var refreshToken: Int?
    /// ID-token lifetime (30 to 86400).
    public var idToken: Int?

    /// Overrides; the ones left nil are the server's.
    public init(accessToken: Int? = nil, refreshToken: Int? = nil, idToken: Int? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
    }
}
