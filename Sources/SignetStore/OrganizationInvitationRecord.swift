import Foundation

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
