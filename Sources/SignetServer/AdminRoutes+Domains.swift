import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore

/// The admin API's organization domain claims (`/admin/v1/organizations/{id}/domains`): claim,
/// prove (DNS or the operator), bind to a configured connection with a policy, remove; the same
/// rules and audit events as `signet orgs domains` (`DomainClaims`). `{domain}` is any spelling
/// the claims accept (an international domain as typed or as its A-label).
extension AdminRoutes {
    static let organizationDomains = organization + "/domains"
    static let organizationDomain = organizationDomains + "/{domain}"
    static let organizationDomainVerify = organizationDomain + "/verify"

    /// The `{domain}` claim of `org`.
    static func domainClaim(_ call: AdminCall, of org: OrganizationRecord) throws -> OrganizationDomainRecord {
        try call.service.domainClaim(org, try AdminRequest.parameter(call.request, "domain"))
    }

    /// The `{domain}` claim of `org`, once `If-Match` names its current ETag (428, 412).
    static func matchedDomainClaim(_ call: AdminCall, of org: OrganizationRecord) throws -> OrganizationDomainRecord {
        let claim = try domainClaim(call, of: org)
        try AdminRequest.requireMatch(call.request, etag: AdminService.etag(claim))
        return claim
    }

    static func domainOperations() -> [AdminOperation] {
        [
            orgOperation(.GET, organizationDomains, "listOrganizationDomains",
                         "The organization's domain claims, with their proof, connection and policy.",
                         scope: orgRead, success: (200, "DomainList")) { call, org in
                return HTTPResponse.admin(["items": .array(try call.service.domainClaims.claims(organizationID: org.id).map(AdminService.json))])
            },
            orgOperation(.POST, organizationDomains, "claimOrganizationDomain",
                         "Claims an email domain, unverified, with the TXT record that proves it. 409 when the domain is claimed already (by any organization).",
                         scope: orgWrite, requestSchema: "DomainClaim", success: (201, "Domain")) { call, org in
                let body = try AdminBody(call.request, allowed: ["domain"])
                let domain = try body.requiredString("domain")
                let claims = call.service.domainClaims
                let claim = try call.service.mappedClaim { () throws(DomainClaimError) in try claims.claim(domain, organizationID: org.id) }
                var response = HTTPResponse.admin(AdminService.json(claim), status: 201, etag: AdminService.etag(claim))
                response.headers.set("Location", "/admin/v1/organizations/\(org.id)/domains/\(claim.domain)")
                return response
            },
            orgOperation(.GET, organizationDomain, "getOrganizationDomain",
                         "One domain claim, with its ETag.",
                         scope: orgRead, success: (200, "Domain")) { call, org in
                let claim = try domainClaim(call, of: org)
                return HTTPResponse.admin(AdminService.json(claim), etag: AdminService.etag(claim))
            },
            orgOperation(.POST, organizationDomainVerify, "verifyOrganizationDomain",
                         "Proves the claim: `method` dns (the default) looks up the TXT record (409 verification_failed when it is missing or holds another value, 503 when the lookup fails); operator marks it verified without DNS.",
                         scope: orgWrite, requestSchema: "DomainVerify", success: (200, "Domain")) { call, org in
                let claim = try domainClaim(call, of: org)
                let body = try AdminBody(call.request, allowed: ["method"])
                let method = try body.string("method") ?? OrganizationDomainRecord.Verification.dns.rawValue
                let claims = call.service.domainClaims
                let resolver = call.environment.txtResolver
                let verified: OrganizationDomainRecord
                switch method {
                case "dns":
                    verified = try call.service.mappedClaim { () throws(DomainClaimError) in
                        try claims.verifyByDNS(claim.domain, organizationID: org.id, resolver: resolver)
                    }
                case "operator":
                    verified = try call.service.mappedClaim { () throws(DomainClaimError) in try claims.verifyByOperator(claim.domain, organizationID: org.id) }
                default: throw AdminError.invalid("method", "must be dns or operator")
                }
                return HTTPResponse.admin(AdminService.json(verified), etag: AdminService.etag(verified))
            },
            orgOperation(.PATCH, organizationDomain, "bindOrganizationDomain",
                         "Binds a verified claim to a configured connection (`connection_id`) with `policy` optional (the default) or sso_required: home-realm discovery then sends the domain's addresses there.",
                         scope: orgWrite, requestSchema: "DomainBind", success: (200, "Domain"), needsMatch: true) { call, org in
                let claim = try matchedDomainClaim(call, of: org)
                let body = try AdminBody(call.request, allowed: ["connection_id", "policy"])
                let connectionID = try body.requiredString("connection_id")
                guard try call.service.configuredFederation().connections.contains(where: { $0.id == connectionID }) else {
                    throw AdminError.invalid("connection_id", "No connection has this id in the configuration.")
                }
                let policyText = try body.string("policy") ?? OrganizationDomainRecord.Policy.optional.rawValue
                guard let policy = OrganizationDomainRecord.Policy(rawValue: policyText) else {
                    throw AdminError.invalid("policy", "must be optional or sso_required")
                }
                let claims = call.service.domainClaims
                let bound = try call.service.mappedClaim { () throws(DomainClaimError) in
                    try claims.bind(claim.domain, organizationID: org.id, connectionID: connectionID, policy: policy)
                }
                return HTTPResponse.admin(AdminService.json(bound), etag: AdminService.etag(bound))
            },
            orgOperation(.DELETE, organizationDomain, "removeOrganizationDomain",
                         "Drops the claim: the domain governs nothing any more.",
                         scope: orgWrite, success: (204, nil), needsMatch: true) { call, org in
                let claim = try matchedDomainClaim(call, of: org)
                let claims = call.service.domainClaims
                try call.service.mappedClaim { () throws(DomainClaimError) in try claims.remove(claim.domain, organizationID: org.id) }
                return HTTPResponse.empty(status: 204)
            },
        ]
    }
}
