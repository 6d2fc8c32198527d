import Foundation
import SignetMacros

/// An organization (a customer's company using the app): its id (`org_…`), its slug (lowercase
/// `[a-z0-9-]`, 2 to 63 characters, unique), its display name and an optional logo.
@MemberwiseInit
public struct OrganizationRecord: Sendable, Equatable {
    /// The id, `org_` and random characters; never changes.
    public var id: String
    /// The unique slug, used in URLs and in `organization=` of an authorization request.
    public var slug: String
    /// The display name.
    public var name: String
    /// An `https` URL of the logo, or nil.
    public var logoURL: String? = nil
    /// When it was created.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date
}
