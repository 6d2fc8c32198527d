import Foundation
import SignetStore
import SignetMacros

/// Organizations' email-domain claims: claiming, the DNS or operator proof, binding to a
/// connection, and the lookup home-realm discovery makes. Shared by the CLI and the admin API.
@MemberwiseInit
public struct DomainClaims: Sendable {
    let store: any OrganizationDomainStore
    let auditor: Auditor
    let clock: any Clock
    let random: any RandomSource

    /// A domain as claims are keyed: `EmailAddress.normalizeDomain` (lowercase LDH labels; an
    /// international domain as its A-label `xn--` form), or nil.
    public static func normalize(_ raw: String) -> String? {
        try? EmailAddress.normalizeDomain(raw.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The domain of an email address as claims are keyed, or nil for an address Signet refuses.
    public static func domain(ofEmail email: String) -> String? {
        guard let normalized = try? EmailAddress.normalize(email), let at = normalized.lastIndex(of: "@") else { return nil }
        return String(normalized[normalized.index(after: at)...])
    }

    /// The claim on an email address's domain, or nil (also for an address Signet refuses).
    public func claim(forEmail email: String) throws -> OrganizationDomainRecord? {
        guard let domain = Self.domain(ofEmail: email) else { return nil }
        return try store.domain(domain)
    }

    /// The claim on `domain` (any spelling `normalize` accepts), or nil.
    public func claim(domain: String) throws -> OrganizationDomainRecord? {
        guard let normalized = Self.normalize(domain) else { return nil }
        return try store.domain(normalized)
    }

    /// The organization's claims.
    public func claims(organizationID: String) throws -> [OrganizationDomainRecord] {
        try store.domains(organizationID: organizationID)
    }

    /// Claims `domain` for the organization, unverified, with a fresh TXT token. Refused (nothing
    /// stored) for a malformed domain, a domain claimed already (by anyone) or an unknown organization.
    public func claim(_ domain: String, organizationID: String) throws(DomainClaimError) -> OrganizationDomainRecord {
        guard let normalized = Self.normalize(domain) else { throw .invalidDomain }
        let record = OrganizationDomainRecord(domain: normalized, organizationID: organizationID,
                                              verificationToken: DomainProof.newToken(random), createdAt: clock.now)
        do { try store.insertDomain(record) } catch StoreError.duplicate {
            throw .alreadyClaimed
        } catch StoreError.notFound {
            throw .organizationNotFound
        } catch {
            throw .store("\(error)")
        }
        auditor.record("organization_domain_claimed", subject: organizationID, detail: ["domain": .string(normalized)])
        return record
    }

    /// Checks the claim's TXT record through `resolver` and marks it verified by DNS. Refused
    /// (nothing changes) when the record is missing or holds another value, or the lookup failed.
    public func verifyByDNS(_ domain: String, organizationID: String, resolver: any TXTResolver)
        throws(DomainClaimError) -> OrganizationDomainRecord {
        let record = try owned(domain, organizationID: organizationID)
        if record.verifiedAt != nil { return record }
        do { try DomainProof.check(domain: record.domain, token: record.verificationToken, resolver: resolver) } catch {
            auditor.record("organization_domain_verification_failed", subject: organizationID,
                           reason: Self.reason(error), detail: ["domain": .string(record.domain)])
            switch error {
            case .recordMissing: throw .recordMissing(DomainProof.recordName(record.domain))
            case .recordMismatch: throw .recordMismatch(DomainProof.recordName(record.domain))
            case .lookupFailed(let detail): throw .lookupFailed(detail)
            }
        }
        return try markVerified(record, by: .dns)
    }

    /// Marks the claim verified by an operator (no DNS lookup).
    public func verifyByOperator(_ domain: String, organizationID: String) throws(DomainClaimError) -> OrganizationDomainRecord {
        let record = try owned(domain, organizationID: organizationID)
        if record.verifiedAt != nil { return record }
        return try markVerified(record, by: .operator)
    }

    /// Binds a verified claim to connection `connectionID` (the caller checked it is configured)
    /// with `policy`. Refused while the claim is not verified.
    public func bind(_ domain: String, organizationID: String, connectionID: String,
                     policy: OrganizationDomainRecord.Policy) throws(DomainClaimError) -> OrganizationDomainRecord {
        var record = try owned(domain, organizationID: organizationID)
        guard record.verifiedAt != nil else { throw .notVerified }
        do {
            guard try store.bindDomain(record.domain, organizationID: organizationID, connectionID: connectionID, policy: policy) else {
                throw DomainClaimError.notVerified
            }
        } catch let error as DomainClaimError { throw error } catch { throw .store("\(error)") }
        record.connectionID = connectionID
        record.policy = policy
        auditor.record("organization_domain_bound", subject: organizationID,
                       detail: ["domain": .string(record.domain), "connection": .string(connectionID), "policy": .string(policy.rawValue)])
        return record
    }

    /// Removes the claim.
    public func remove(_ domain: String, organizationID: String) throws(DomainClaimError) {
        let record = try owned(domain, organizationID: organizationID)
        do { _ = try store.deleteDomain(record.domain, organizationID: organizationID) } catch { throw .store("\(error)") }
        auditor.record("organization_domain_removed", subject: organizationID, detail: ["domain": .string(record.domain)])
    }

    private func owned(_ domain: String, organizationID: String) throws(DomainClaimError) -> OrganizationDomainRecord {
        guard let normalized = Self.normalize(domain) else { throw .invalidDomain }
        let found: OrganizationDomainRecord?
        do { found = try store.domain(normalized) } catch { throw .store("\(error)") }
        guard let found, found.organizationID == organizationID else { throw .notClaimed }
        return found
    }

    private func markVerified(_ record: OrganizationDomainRecord, by method: OrganizationDomainRecord.Verification)
        throws(DomainClaimError) -> OrganizationDomainRecord {
        let now = clock.now
        do { _ = try store.markDomainVerified(record.domain, organizationID: record.organizationID, by: method, at: now) } catch {
            throw .store("\(error)")
        }
        auditor.record("organization_domain_verified", subject: record.organizationID, method: method.rawValue,
                       detail: ["domain": .string(record.domain)])
        var verified = record
        verified.verifiedAt = now
        verified.verifiedBy = method
        return verified
    }

    static func reason(_ failure: DomainProof.Failure) -> String {
        switch failure {
        case .recordMissing: "record_missing"
        case .recordMismatch: "record_mismatch"
        case .lookupFailed: "lookup_failed"
        }
    }
}

/// Why a domain claim operation was refused; `message` is safe to show an operator.
public enum DomainClaimError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidDomain
    case alreadyClaimed
    case organizationNotFound
    case notClaimed
    case notVerified
    case recordMissing(String)
    case recordMismatch(String)
    case lookupFailed(String)
    case store(String)

    /// The operator-facing text.
    public var message: String {
        switch self {
        case .invalidDomain: "not a valid domain"
        case .alreadyClaimed: "this domain is already claimed"
        case .organizationNotFound: "no such organization"
        case .notClaimed: "this organization has not claimed this domain"
        case .notVerified: "the domain is not verified yet"
        case .recordMissing(let name): "no TXT record at \(name): publish the claim's record there, then verify again"
        case .recordMismatch(let name): "the TXT records at \(name) do not hold this claim's token"
        case .lookupFailed(let detail): "the DNS lookup failed (\(detail)); try again later"
        case .store: "the store failed"
        }
    }

    /// See `message`.
    public var description: String { message }
}
