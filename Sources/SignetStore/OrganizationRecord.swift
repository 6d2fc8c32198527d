import Foundation

/// An organization (a customer's company using the app): its id (`org_…`), its slug (lowercase
/// `[a-z0-9-]`, 2 to 63 characters, unique), its display name and an optional logo.
public struct OrganizationRecord: Sendable, Equatable {
    /// The id, `org_` and random characters; never changes.
    public var id: String
    /// The unique slug, used in URLs and in `organization=` of an authorization request.
    public var slug: String
    /// The display name.
    public var name: String
    /// An `https` URL of the logo, or nil.
    public var logoURL: String?
    /// When it was created.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date

    /// Creates a record.
    public init(id: String, slug: String, name: String, logoURL: String? = nil, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.slug = slug
        self.name = name
        self.logoURL = logoURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A user's membership of an organization, with the roles the user holds there.
public struct OrganizationMemberRecord: Sendable, Equatable {
    /// The organization.
    public var organizationID: String
    /// The user.
    public var userID: String
    /// The roles, sorted, without repeats (built in `owner`, `admin`, `member`, or custom names).
    public var roles: [String]
    /// When the user became a member.
    public var createdAt: Date

    /// Creates a record.
    public init(organizationID: String, userID: String, roles: [String], createdAt: Date) {
        self.organizationID = organizationID
        self.userID = userID
        self.roles = roles
        self.createdAt = createdAt
    }
}

/// A membership with its organization, as a user's list of organizations reads it.
public struct OrganizationMembership: Sendable, Equatable {
    /// The organization.
    public var organization: OrganizationRecord
    /// The membership.
    public var member: OrganizationMemberRecord

    /// Creates a value.
    public init(organization: OrganizationRecord, member: OrganizationMemberRecord) {
        self.organization = organization
        self.member = member
    }
}

/// An invitation of an email address into an organization with one role. Only the keyed hash of
/// its link's token is stored; the link is good once, until `expiresAt`, unless revoked.
public struct OrganizationInvitationRecord: Sendable, Equatable {
    /// The id, `inv_` and random characters.
    public var id: String
    /// The organization.
    public var organizationID: String
    /// The invited address, normalized (`EmailAddress.normalize`).
    public var email: String
    /// The role the invitee gets.
    public var role: String
    /// The keyed hash of the link's token.
    public var tokenHash: [UInt8]
    /// When it was created (or last resent).
    public var createdAt: Date
    /// When the link stops working.
    public var expiresAt: Date
    /// When it was accepted, or nil.
    public var acceptedAt: Date?
    /// When it was revoked, or nil.
    public var revokedAt: Date?
    /// Who invited (an actor: `cli`, `admin:…`, a user id), or nil.
    public var invitedBy: String?
    /// The user who accepted it, or nil.
    public var acceptedBy: String?

    /// Creates a record.
    public init(id: String, organizationID: String, email: String, role: String, tokenHash: [UInt8], createdAt: Date,
                expiresAt: Date, acceptedAt: Date? = nil, revokedAt: Date? = nil, invitedBy: String? = nil,
                acceptedBy: String? = nil) {
        self.id = id
        self.organizationID = organizationID
        self.email = email
        self.role = role
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.acceptedAt = acceptedAt
        self.revokedAt = revokedAt
        self.invitedBy = invitedBy
        self.acceptedBy = acceptedBy
    }
}

/// What accepting an invitation did.
public enum InvitationAcceptance: Sendable, Equatable {
    /// Accepted: the user is now a member with the invitation's role (added to the roles held).
    case accepted(OrganizationInvitationRecord, OrganizationMemberRecord)
    /// No invitation has this token (never issued, or replaced by a resend).
    case unknown
    /// Already accepted.
    case alreadyAccepted
    /// Revoked.
    case revoked
    /// Expired.
    case expired
    /// The accepting user's verified email is not the invited one.
    case otherEmail(invited: String)

    /// The pure decision, made in the transaction on the row read locked: refusals first in the
    /// order a person can act on (a used link is used, whatever the email), then the email.
    public static func decide(_ invitation: OrganizationInvitationRecord?, email: String, now: Date) -> InvitationAcceptance? {
        guard let invitation else { return .unknown }
        if invitation.acceptedAt != nil { return .alreadyAccepted }
        if invitation.revokedAt != nil { return .revoked }
        if invitation.expiresAt <= now { return .expired }
        if invitation.email != email.lowercased() { return .otherEmail(invited: invitation.email) }
        return nil
    }
}
