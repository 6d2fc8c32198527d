import Foundation
import SignetMacros

/// A user's membership of an organization, with the roles the user holds there.
@MemberwiseInit
public struct OrganizationMemberRecord: Sendable, Equatable {
    /// The organization.
    public var organizationID: String
    /// The user.
    public var userID: String
    /// The roles, sorted, without repeats (built in `owner`, `admin`, `member`, or custom names).
    public var roles: [String]
    /// When the user became a member.
    public var createdAt: Date
}
