import Foundation
import SignetCore
import SignetJOSE
import SignetStore

/// The admin API's organization domain claims: `DomainClaims` (SignetCore) applies the rules
/// and records the audit events with the acting admin client as the actor; this file shapes the
/// JSON, the ETags and the refusals (docs/organizations.md).
extension AdminService {
    /// The claims, audited as the acting admin client (with the request's address).
    var domainClaims: DomainClaims {
        let actor = self.actor
        let auditor = Auditor(log: environment.storage.audit, clock: environment.clock, context: {
            var context = AuditContext.ofRequest() ?? AuditContext()
            if let actor { context.actor = actor }
            return context
        })
        return environment.makeDomainClaims(auditor: auditor)
    }

    /// The organization's claim on `domain` (any spelling), or 404 naming `domain`.
    func domainClaim(_ organization: OrganizationRecord, _ domain: String) throws -> OrganizationDomainRecord {
        guard let record = try domainClaims.claim(domain: domain), record.organizationID == organization.id else {
            throw AdminError(status: 404, error: "not_found", field: "domain", message: "The organization has not claimed this domain.")
        }
        return record
    }

    /// Runs `body`, turning a `DomainClaimError` into an `AdminError` naming its member.
    func mappedClaim<T>(_ body: () throws(DomainClaimError) -> T) throws -> T {
        do { return try body() } catch {
            switch error {
            case .invalidDomain: throw AdminError.invalid("domain", "must be a domain such as example.com")
            case .alreadyClaimed: throw AdminError.conflict("domain", "This domain is already claimed.")
            case .organizationNotFound: throw AdminError.notFound("organization")
            case .notClaimed: throw AdminError(status: 404, error: "not_found", field: "domain", message: "The organization has not claimed this domain.")
            case .notVerified: throw AdminError.conflict("domain", "The domain is not verified yet.")
            case .recordMissing, .recordMismatch: throw AdminError(status: 409, error: "verification_failed", field: "domain", message: Self.sentence(error.message))
            case .lookupFailed: throw AdminError(status: 503, error: "temporarily_unavailable", field: "domain", message: "The DNS lookup failed; try again later.")
            case .store: throw error   // a server error: logged, never sent
            }
        }
    }

    static func sentence(_ message: String) -> String {
        guard let first = message.first else { return message }
        return first.uppercased() + message.dropFirst() + "."
    }

    /// A claim as the API shows it, with the TXT record that proves it (its token is public).
    static func json(_ claim: OrganizationDomainRecord) -> JSONValue {
        .object([
            "domain": .string(claim.domain), "organization_id": .string(claim.organizationID),
            "verified": .bool(claim.verifiedAt != nil),
            "verified_at": claim.verifiedAt.map { .string(stamp($0)) } ?? .null,
            "verified_by": claim.verifiedBy.map { .string($0.rawValue) } ?? .null,
            "connection_id": claim.connectionID.map(JSONValue.string) ?? .null,
            "policy": .string(claim.policy.rawValue),
            "txt_record": .object(["name": .string(DomainProof.recordName(claim.domain)),
                                   "value": .string(DomainProof.recordValue(claim.verificationToken))]),
            "created_at": .string(stamp(claim.createdAt)),
        ])
    }

    /// The claim's strong ETag.
    static func etag(_ claim: OrganizationDomainRecord) -> String { etag(json(claim).serialized()) }
}
