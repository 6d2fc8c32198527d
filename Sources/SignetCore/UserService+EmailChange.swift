import Foundation
import SignetStore

/// Why an account's email may not move to another address.
public enum EmailChangeRefusal: Error, Sendable, Equatable {
    /// The current address is in an `sso_required` domain: the organization's IdP vouches for
    /// it, and a personal address would let its holder reset a password and sign in around the
    /// IdP while keeping what the organization gave (memberships, roles, `org_id`).
    case leavesGovernedDomain(domain: String)
    /// The new address is in an `sso_required` domain: only the organization's IdP brings an
    /// account there (its first sign-in links or creates it), never a password account's change.
    case entersGovernedDomain(domain: String)
}

extension UserService {
    /// The one rule of an email change (the account page asks it when the change is requested,
    /// `changeEmail` again when it is made; docs/organizations.md, "Changing the address"):
    /// neither address may be in an `sso_required` domain. Nil when the change may go ahead.
    public func emailChangeRefusal(from current: String, to new: String) throws -> EmailChangeRefusal? {
        if let domain = DomainClaims.domain(ofEmail: current), HomeRealmDecision.requiresSSO(try storage.organizationDomains.domain(domain)) {
            return .leavesGovernedDomain(domain: domain)
        }
        if let domain = DomainClaims.domain(ofEmail: new), HomeRealmDecision.requiresSSO(try storage.organizationDomains.domain(domain)) {
            return .entersGovernedDomain(domain: domain)
        }
        return nil
    }

    /// Makes a proven change (`UserStore.changeEmail`, the notice to the old address in the same
    /// transaction) if `emailChangeRefusal` allows it now: a domain governed since the request
    /// still refuses it. False when the account no longer has `current`.
    ///
    /// - Throws: `EmailChangeRefusal`, nothing changed; `StoreError.duplicate` for an address
    ///   another account has.
    public func changeEmail(userID: String, from current: String, to new: String, notice: OutboxMessageRecord?) throws -> Bool {
        if let refusal = try emailChangeRefusal(from: current, to: new) {
            auditor.record("email_change_refused", subject: userID, reason: refusal.reason)
            throw refusal
        }
        return try storage.users.changeEmail(userID: userID, from: current, to: new, now: clock.now, notice: notice)
    }
}

extension EmailChangeRefusal {
    /// The audit reason.
    public var reason: String {
        switch self {
        case .leavesGovernedDomain: "leaves_sso_required_domain"
        case .entersGovernedDomain: "enters_sso_required_domain"
        }
    }
}
