import Foundation

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
