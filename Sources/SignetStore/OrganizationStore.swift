import Foundation

/// Organizations, their custom roles, members and invitations (`organizations`,
/// `organization_roles`, `organization_members`, `organization_invitations`).
///
/// The store checks no names: slugs, role names and emails are validated and normalized by the
/// caller (`Organizations` in SignetCore). Deleting an organization deletes its roles, members
/// and invitations; deleting a user deletes its memberships.
public protocol OrganizationStore: Sendable {
    /// Stores a new organization. Throws `.duplicate` if the id or the slug is taken.
    func insertOrganization(_ organization: OrganizationRecord) throws

    /// The organization with this id, or nil.
    func organization(id: String) throws -> OrganizationRecord?

    /// The organization with this slug, or nil.
    func organization(slug: String) throws -> OrganizationRecord?

    /// At most `limit` organizations ordered by id, after the id `after` (nil: from the first).
    func organizations(limit: Int, after: String?) throws -> [OrganizationRecord]

    /// Replaces the slug, name and logo of `organization.id` (and its `updatedAt`). Throws
    /// `.notFound` for an unknown id, `.duplicate` if the new slug is another's.
    func updateOrganization(_ organization: OrganizationRecord) throws

    /// Deletes the organization with its roles, members and invitations. False if there was none.
    func deleteOrganization(id: String) throws -> Bool

    /// The organization's custom role names, sorted.
    func roles(organizationID: String) throws -> [String]

    /// Adds a custom role name. Throws `.duplicate` if it exists, `.notFound` for an unknown organization.
    func insertRole(organizationID: String, name: String, at: Date) throws

    /// Removes a custom role and takes it from every member holding it, in one transaction. False
    /// if there was no such role.
    func deleteRole(organizationID: String, name: String) throws -> Bool

    /// Makes the user a member with `roles` unless it already is one (then nothing changes, also
    /// not its roles): idempotent, so racing just-in-time sign-ins leave one membership. True when
    /// this call added it. Throws `.notFound` for an unknown organization or user.
    @discardableResult
    func addMember(organizationID: String, userID: String, roles: [String], at: Date) throws -> Bool

    /// Ends a membership. False if there was none.
    func removeMember(organizationID: String, userID: String) throws -> Bool

    /// Replaces a member's roles. False if the user is not a member.
    func setRoles(organizationID: String, userID: String, roles: [String]) throws -> Bool

    /// The user's membership of the organization, or nil.
    func membership(organizationID: String, userID: String) throws -> OrganizationMemberRecord?

    /// Every organization the user is a member of, ordered by slug.
    func memberships(userID: String) throws -> [OrganizationMembership]

    /// At most `limit` members ordered by user id, after the user id `after`.
    func members(organizationID: String, limit: Int, after: String?) throws -> [OrganizationMemberRecord]

    /// Stores an invitation and, in the same transaction, its mail (nil: none). Throws
    /// `.notFound` for an unknown organization.
    func insertInvitation(_ invitation: OrganizationInvitationRecord, mail: OutboxMessageRecord?) throws

    /// The invitation with this id, or nil.
    func invitation(id: String) throws -> OrganizationInvitationRecord?

    /// The invitation whose link token has this keyed hash, or nil.
    func invitation(tokenHash: [UInt8]) throws -> OrganizationInvitationRecord?

    /// The organization's invitations, newest first.
    func invitations(organizationID: String) throws -> [OrganizationInvitationRecord]

    /// Resends a pending invitation: a new token hash and expiry replace the old ones (so the old
    /// link is dead) and the mail is enqueued, in one transaction. False, changing nothing, when
    /// the invitation is not pending at `now` (accepted, revoked, expired or unknown).
    func renewInvitation(id: String, tokenHash: [UInt8], expiresAt: Date, now: Date, mail: OutboxMessageRecord?) throws -> Bool

    /// Revokes a pending invitation. False if it was not pending at `now`.
    func revokeInvitation(id: String, now: Date) throws -> Bool

    /// Accepts the invitation of this token hash for the user whose verified email is `email`,
    /// in one transaction holding the row: decided by `InvitationAcceptance.decide`; when
    /// accepted, marks it used and makes the user a member with its role (added to the roles
    /// held). Of racing acceptances one wins; the others see `.alreadyAccepted`.
    func acceptInvitation(tokenHash: [UInt8], userID: String, email: String, now: Date) throws -> InvitationAcceptance

    /// Sign-up through an invitation: in one transaction holding the invitation's row, decides as
    /// `acceptInvitation` does with `newUser.email`, and when accepted stores `newUser` (whose
    /// email the link proved) and makes it a member with the invited role. A refusal stores
    /// nothing. Throws `.duplicate`, storing nothing and using nothing, when the id or email is taken.
    func acceptInvitation(tokenHash: [UInt8], creating newUser: UserRecord, now: Date) throws -> InvitationAcceptance
}
