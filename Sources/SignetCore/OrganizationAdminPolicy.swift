import SignetStore

/// What an organization's own admin may do, decided from the acting user's membership alone
/// (pure, so it is tested without a server): an `owner` may do everything an admin may and also
/// grant `owner` and change owners; an `admin` manages members and invitations but can neither
/// grant `owner` nor touch an owner's membership; anyone else nothing. Acting on another
/// organization is refused because the membership read is the one of the organization in the path.
public enum OrganizationAdminPolicy {
    /// The roles that make a member an organization admin.
    public static let adminRoles: Set<String> = ["owner", "admin"]

    /// Refuses an actor who is not an owner or admin of the organization.
    public static func requireAdmin(_ actor: OrganizationMemberRecord?) throws(OrganizationError) -> OrganizationMemberRecord {
        guard let actor, !adminRoles.isDisjoint(with: actor.roles) else {
            throw OrganizationError(.forbidden, nil, "You are not an owner or admin of this organization.")
        }
        return actor
    }

    /// Refuses granting `roles` (an invitation's role or a member's new roles) that the actor may not grant.
    public static func checkGrant(_ roles: [String], by actor: OrganizationMemberRecord) throws(OrganizationError) {
        if roles.contains("owner"), !actor.roles.contains("owner") {
            throw OrganizationError(.forbidden, "roles", "Only an owner can grant the role owner.")
        }
    }

    /// Refuses changing or removing `target`'s membership when the actor may not.
    public static func checkChange(of target: OrganizationMemberRecord, by actor: OrganizationMemberRecord) throws(OrganizationError) {
        if target.roles.contains("owner"), !actor.roles.contains("owner") {
            throw OrganizationError(.forbidden, "user", "Only an owner can change or remove an owner.")
        }
    }
}
