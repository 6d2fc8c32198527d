/// Who is acting and from where, for the audit events recorded meanwhile: the caller's address
/// and user agent during an HTTP request (the server supplies them), or the actor `cli` while an
/// admin command runs (bound with `AuditContext.$current.withValue`).
public struct AuditContext: Sendable, Equatable {
    /// The actor when the caller names none (`cli`), or nil.
    public var actor: String?
    /// The caller's address (the trusted client address), or nil.
    public var address: String?
    /// The caller's `User-Agent`, or nil.
    public var userAgent: String?

    /// A context.
    public init(actor: String? = nil, address: String? = nil, userAgent: String? = nil) {
        self.actor = actor
        self.address = address
        self.userAgent = userAgent
    }

    /// The context bound for the current task or thread (the CLI binds `cli` here).
    @TaskLocal public static var current: AuditContext?
}
