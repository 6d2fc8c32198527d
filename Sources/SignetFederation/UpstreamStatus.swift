import Foundation

/// What one node saw of a provider: when its last provider step (the authorization URL, the code
/// exchange, a token revocation) succeeded, and when one last failed and why. Kept in the node's
/// memory only: it is not shared between nodes and starts empty after a restart.
public struct UpstreamStatus: Sendable, Equatable {
    /// When a provider step last succeeded, or nil.
    public var lastSuccessAt: Date?
    /// When a provider step last failed, or nil.
    public var lastFailureAt: Date?
    /// Why it failed (its `description` is the private detail the log gets, never a token, code or email).
    public var lastError: FederationError?

    /// Whether the most recent step failed (kept apart from the times, which a frozen or coarse
    /// clock can make equal).
    public var isFailing = false
}
