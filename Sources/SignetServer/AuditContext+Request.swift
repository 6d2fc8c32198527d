import SignetCore
import SignetHTTP

extension AuditContext {
    /// The context of the HTTP request being handled (its trusted client address and user agent),
    /// else the bound `AuditContext` (the CLI's `cli`): what the server's auditors record.
    public static let ofRequest: @Sendable () -> AuditContext? = {
        guard let request = RequestContext.current else { return AuditContext.current }
        return AuditContext(actor: AuditContext.current?.actor, address: request.clientAddress, userAgent: request.userAgent)
    }
}
