/// What a rotation hands back on success: the family, the token presented and its successor.
/// Only `RefreshRotation.decide` makes one (its memberwise initializer is internal).
public struct Rotation: Sendable, Equatable {
    /// The grant family (active).
    public var grant: GrantRecord
    /// The token that was presented, now marked rotated.
    public var presented: RefreshTokenRecord
    /// The family's live token: the one to hand to the client.
    public var successor: RefreshTokenRecord
    /// The family's user as the rotation's own locked read found it, when the caller asked for it
    /// (`withUser`) and the store reads it there (a store that does not leaves it nil); nil also
    /// when the user is gone. A caller that needs the user reads it itself when this is nil.
    public var user: UserRecord?
}

/// The outcome of presenting a refresh token.
public enum RotationResult: Sendable, Equatable {
    /// The token was live; it is now rotated and the successor is stored.
    case rotated(Rotation)
    /// The token was rotated moments ago (within the grace window) and its successor is still the
    /// live token: a retry. Nothing was written; hand out the same successor again.
    case graceRetry(Rotation)
    /// The token was rotated outside the grace window, or its successor was rotated too: reuse.
    /// The whole family was revoked in the same transaction; the grant is returned revoked.
    case reuseDetected(GrantRecord)
    /// The family's user is disabled: the family was revoked (reason `user_disabled`) in the same
    /// transaction; the grant is returned revoked.
    case userDisabled(GrantRecord)
    /// The family was revoked before this call.
    case revoked
    /// The family's absolute lifetime, or this live token's lifetime, has passed.
    case expired
    /// The token belongs to another client. Nothing was written.
    case clientMismatch
    /// No token has this hash.
    case notFound

    /// This outcome with `user` as its rotation's `Rotation.user` (a rotation or a grace retry;
    /// any other outcome carries no user).
    public func carrying(user: UserRecord) -> RotationResult {
        switch self {
        case .rotated(var rotation):
            rotation.user = user
            return .rotated(rotation)
        case .graceRetry(var rotation):
            rotation.user = user
            return .graceRetry(rotation)
        default:
            return self
        }
    }
}
