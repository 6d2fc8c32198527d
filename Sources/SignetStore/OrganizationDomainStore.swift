import Foundation

/// Organizations' email-domain claims. A domain is claimed at most once, by one organization.
public protocol OrganizationDomainStore: Sendable {
    /// Stores a new claim. Throws `.duplicate` if the domain is claimed already (by anyone),
    /// `.notFound` if the organization does not exist; nothing is stored then.
    func insertDomain(_ domain: OrganizationDomainRecord) throws

    /// The claim on `domain` (normalized), or nil.
    func domain(_ domain: String) throws -> OrganizationDomainRecord?

    /// The organization's claims, by domain.
    func domains(organizationID: String) throws -> [OrganizationDomainRecord]

    /// Marks the claim verified (once: a verified claim keeps its first proof); false when the
    /// domain is not claimed by `organizationID` or already verified.
    func markDomainVerified(_ domain: String, organizationID: String, by: OrganizationDomainRecord.Verification, at: Date) throws -> Bool

    /// Binds a verified claim to a connection with a policy; false when the domain is not claimed
    /// by `organizationID` or not verified (nothing changes).
    func bindDomain(_ domain: String, organizationID: String, connectionID: String, policy: OrganizationDomainRecord.Policy) throws -> Bool

    /// Removes the claim; false when the domain is not claimed by `organizationID`.
    func deleteDomain(_ domain: String, organizationID: String) throws -> Bool
}
