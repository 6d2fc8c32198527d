import Foundation
import SignetMacros

/// An invitation of an email address into an organization with one role. Only the keyed hash of
/// its link's token is stored; the link is good once, until `expiresAt`, unless revoked.
@MemberwiseInit
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
    public var acceptedAt: Date? = nil
    /// When it was revoked, or nil.
    public var revokedAt: Date? = nil
    /// Who invited (an actor: `cli`, `admin:…`, a user id), or nil.
    public var invitedBy: String? = nil
    /// The user who accepted it, or nil.
    public var acceptedBy: String? = nil
}
