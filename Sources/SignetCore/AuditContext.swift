import SignetMacros

/// Who is acting and from where, for the audit events recorded meanwhile: the caller's address
/// and user agent during an HTTP request (the server supplies them), or the actor `cli` while an
/// admin command runs (bound with `AuditContext.$current.withValue`).
@MemberwiseInit
public struct AuditContext: Sendable, Equatable {
    /// The actor when the caller names none (`cli`), or nil.
    public var actor: String? = nil
    /// The caller's address (the trusted client address), or nil.
    public var address: String? = nil
    /// The caller's `User-Agent`, or nil.
    public var userAgent: String? = nil

    /// The context bound for the current task or thread (the CLI binds `cli` here).
    @TaskLocal public static var current: AuditContext?
}
