import Foundation
import SignetStore

/// Organizations' domain claims over a SQL database (`organization_domains`).
public struct SQLOrganizationDomainStore: OrganizationDomainStore {
    let database: any SQLDatabase

    static let columns = "domain, organization_id, verification_token, verified_at, verified_by, connection_id, policy, created_at"
    /// The domain is the primary key: a second claim, by anyone, is a duplicate and stores nothing.
    static let insert = SQLTemplate.insert(into: "organization_domains", columns)
    static let byDomain = "SELECT \(columns) FROM organization_domains WHERE domain = $1"
    static let byOrganization = "SELECT \(columns) FROM organization_domains WHERE organization_id = $1 ORDER BY domain"
    static let verify = """
        UPDATE organization_domains SET verified_at = $3, verified_by = $4
        WHERE domain = $1 AND organization_id = $2 AND verified_at IS NULL
        """
    static let bind = """
        UPDATE organization_domains SET connection_id = $3, policy = $4
        WHERE domain = $1 AND organization_id = $2 AND verified_at IS NOT NULL
        """
    static let delete = "DELETE FROM organization_domains WHERE domain = $1 AND organization_id = $2"

    static func decode(_ row: any SQLRow) throws -> OrganizationDomainRecord {
        let verifiedBy = try row.optionalText(4).map { text in
            guard let method = OrganizationDomainRecord.Verification(rawValue: text) else {
                throw StoreError.corrupt("organization_domains.verified_by \(text)")
            }
            return method
        }
        let policyText = try row.text(6)
        guard let policy = OrganizationDomainRecord.Policy(rawValue: policyText) else {
            throw StoreError.corrupt("organization_domains.policy \(policyText)")
        }
        return OrganizationDomainRecord(domain: try row.text(0), organizationID: try row.text(1), verificationToken: try row.text(2),
                                        verifiedAt: try row.optionalDate(3), verifiedBy: verifiedBy, connectionID: row.optionalText(5),
                                        policy: policy, createdAt: try row.date(7))
    }

    /// See `OrganizationDomainStore.insertDomain(_:)`.
    public func insertDomain(_ domain: OrganizationDomainRecord) throws {
        try database.write { db in
            _ = try db.run(Self.insert, [domain.domain, domain.organizationID, domain.verificationToken, domain.verifiedAt,
                                         domain.verifiedBy?.rawValue, domain.connectionID, domain.policy.rawValue, domain.createdAt])
        }
    }

    /// See `OrganizationDomainStore.domain(_:)`.
    public func domain(_ domain: String) throws -> OrganizationDomainRecord? {
        try database.read { db in try db.one(Self.byDomain, [domain], Self.decode) }
    }

    /// See `OrganizationDomainStore.domains(organizationID:)`.
    public func domains(organizationID: String) throws -> [OrganizationDomainRecord] {
        try database.read { db in try db.query(Self.byOrganization, [organizationID], Self.decode) }
    }

    /// See `OrganizationDomainStore.markDomainVerified(_:organizationID:by:at:)`.
    public func markDomainVerified(_ domain: String, organizationID: String, by: OrganizationDomainRecord.Verification, at: Date) throws -> Bool {
        try database.write { db in try db.run(Self.verify, [domain, organizationID, at, by.rawValue]) == 1 }
    }

    /// See `OrganizationDomainStore.bindDomain(_:organizationID:connectionID:policy:)`.
    public func bindDomain(_ domain: String, organizationID: String, connectionID: String,
                           policy: OrganizationDomainRecord.Policy) throws -> Bool {
        try database.write { db in try db.run(Self.bind, [domain, organizationID, connectionID, policy.rawValue]) == 1 }
    }

    /// See `OrganizationDomainStore.deleteDomain(_:organizationID:)`.
    public func deleteDomain(_ domain: String, organizationID: String) throws -> Bool {
        try database.write { db in try db.run(Self.delete, [domain, organizationID]) == 1 }
    }
}
