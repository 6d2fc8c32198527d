import Foundation

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
