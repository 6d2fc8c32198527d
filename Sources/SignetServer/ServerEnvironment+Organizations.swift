import Foundation
import SignetCore

extension ServerEnvironment {
    /// Organizations over this environment's store, audited with the request's context.
    public func makeOrganizations() -> Organizations {
        Organizations(storage: storage, clock: clock, random: random,
                      auditor: Auditor(log: storage.audit, clock: clock, context: AuditContext.ofRequest),
                      invitationLifetime: TimeInterval(configuration.organizations.invitationLifetime),
                      tokenHashKey: masterKey.tokenHashKey)
    }
}
