import Foundation

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
