import Foundation
import SignetMacros

/// A membership with its organization, as a user's list of organizations reads it.
@MemberwiseInit
public struct OrganizationMembership: Sendable, Equatable {
    /// The organization.
    public var organization: OrganizationRecord
    /// The membership.
    public var member: OrganizationMemberRecord
}
