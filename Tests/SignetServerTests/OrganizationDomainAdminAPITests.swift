import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// `/admin/v1/organizations/{id}/domains` over real HTTP: claim, prove by DNS (dnsmasq on
/// loopback) or by the operator, bind to a configured connection with a policy, remove; each
/// refusal with its status, `error` and field, and nothing changed by one.
@Suite(.endToEndLimit) struct OrganizationDomainAdminAPITests {
    /// A server with the connection `corp` (the mock provider), its admin listener, the DNS
    /// resolver set to `dnsPort`, and an organization `acme`.
    static func start(dnsPort: Int) throws -> (Federated, AdminFixture, OrganizationRecord) {
        let fed = try Federated(.generic, id: "corp", adminListener: true) { $0.domains.resolver = "127.0.0.1:\(dnsPort)" }
        let fixture = try AdminFixture(server: fed.server)
        let org = try fed.server.environment.makeOrganizations().create(slug: "acme", name: "Acme")
        return (fed, fixture, org)
    }

    @Test func aDomainIsClaimedProvedBoundAndRemovedWithItsRefusals() async throws {
        let dnsPort = try FreePort.pick()
        let (fed, fixture, org) = try Self.start(dnsPort: dnsPort)
        defer { fed.stop() }
        let token = try await OrganizationAdminAPITests.token(fixture)
        let claims = fed.server.environment.storage.organizationDomains
        let base = "/admin/v1/organizations/\(org.id)/domains"

        // Refusals of a claim: nothing stored.
        expectAdminError(try await fixture.call("POST", base, token: nil, json: ["domain": "acme.example.test"]), 401, "missing_token")
        let reader = try await OrganizationAdminAPITests.token(fixture, scopes: ["admin:orgs:read"])
        expectAdminError(try await fixture.call("POST", base, token: reader, json: ["domain": "acme.example.test"]), 403, "insufficient_scope")
        let other = try await fixture.token(["admin:users:read"], client: "viewer")
        expectAdminError(try await fixture.call("GET", base, token: other), 403, "insufficient_scope")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["domain": "not a domain"]), 400, "invalid_request", field: "domain")
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["domain": "acme.example.test", "policy": "x"]),
                         400, "invalid_request", field: "policy")
        expectAdminError(try await fixture.call("POST", "/admin/v1/organizations/org_nope/domains", token: token, json: ["domain": "acme.example.test"]),
                         404, "not_found")
        #expect(try claims.domains(organizationID: org.id).isEmpty)

        // The claim, with the record to publish.
        let created = try await fixture.call("POST", base, token: token, json: ["domain": "ACME.Example.Test"])
        #expect(created.status == 201, "\(created)")
        #expect(created.header("Location") == "\(base)/acme.example.test")
        let claim = try created.json()
        #expect(claim["domain"] == "acme.example.test" && claim["verified"] == .bool(false) && claim["policy"] == "optional")
        let record = try #require(claim["txt_record"])
        #expect(record["name"] == "_signet-challenge.acme.example.test")
        let value = try #require(record["value"]?.stringValue)
        #expect(value.hasPrefix("signet-domain-verification="))
        // Claimed twice (by this organization or another): 409, nothing stored.
        expectAdminError(try await fixture.call("POST", base, token: token, json: ["domain": "acme.example.test"]), 409, "conflict", field: "domain")
        let beta = try fed.server.environment.makeOrganizations().create(slug: "beta", name: "Beta")
        expectAdminError(try await fixture.call("POST", "/admin/v1/organizations/beta/domains", token: token, json: ["domain": "acme.example.test"]),
                         409, "conflict", field: "domain")
        #expect(try claims.domains(organizationID: beta.id).isEmpty)
        let listed = try await fixture.call("GET", base, token: reader)
        #expect(listed.status == 200)
        #expect(try listed.json()["items"]?.arrayValue?.count == 1)
        // Another organization cannot read it.
        expectAdminError(try await fixture.call("GET", "/admin/v1/organizations/beta/domains/acme.example.test", token: token), 404, "not_found", field: "domain")

        // Binding before the proof: 409, unchanged.
        let fetched = try await fixture.call("GET", "\(base)/acme.example.test", token: reader)
        let etag = try #require(fetched.header("ETag"))
        expectAdminError(try await fixture.call("PATCH", "\(base)/acme.example.test", token: token, json: ["connection_id": "corp"],
                                                headers: ["If-Match": etag]), 409, "conflict", field: "domain")

        // DNS: no record yet, then the published one.
        let empty = try await LocalDNSServer.start(zones: ["example.test"], records: [], port: dnsPort)
        expectAdminError(try await fixture.call("POST", "\(base)/acme.example.test/verify", token: token, json: [:]), 409, "verification_failed", field: "domain")
        await empty.stop()
        #expect(try claims.domain("acme.example.test")?.verifiedAt == nil)
        let dns = try await LocalDNSServer.start(zones: ["example.test"], records: [("_signet-challenge.acme.example.test", value)], port: dnsPort)
        defer { Task { await dns.stop() } }
        expectAdminError(try await fixture.call("POST", "\(base)/acme.example.test/verify", token: token, json: ["method": "magic"]),
                         400, "invalid_request", field: "method")
        let verified = try await fixture.call("POST", "\(base)/acme.example.test/verify", token: token, json: [:])
        #expect(verified.status == 200, "\(verified)")
        #expect(try verified.json()["verified_by"] == "dns")
        let verifiedTag = try #require(verified.header("ETag"))

        // Bind: If-Match required and current; the connection must be configured.
        let bindPath = "\(base)/acme.example.test"
        expectAdminError(try await fixture.call("PATCH", bindPath, token: token, json: ["connection_id": "corp"]), 428, "precondition_required")
        expectAdminError(try await fixture.call("PATCH", bindPath, token: token, json: ["connection_id": "corp"], headers: ["If-Match": etag]),
                         412, "precondition_failed")
        expectAdminError(try await fixture.call("PATCH", bindPath, token: token, json: ["connection_id": "nope"], headers: ["If-Match": verifiedTag]),
                         400, "invalid_request", field: "connection_id")
        expectAdminError(try await fixture.call("PATCH", bindPath, token: token, json: ["connection_id": "corp", "policy": "always"],
                                                headers: ["If-Match": verifiedTag]), 400, "invalid_request", field: "policy")
        #expect(try claims.domain("acme.example.test")?.connectionID == nil)
        let bound = try await fixture.call("PATCH", bindPath, token: token, json: ["connection_id": "corp", "policy": "sso_required"],
                                           headers: ["If-Match": verifiedTag])
        #expect(bound.status == 200, "\(bound)")
        #expect(try bound.json()["connection_id"] == "corp" && bound.json()["policy"] == "sso_required")
        #expect(try claims.domain("acme.example.test")?.policy == .ssoRequired)
        // Home-realm discovery now governs the domain.
        #expect(try fed.server.environment.makeDomainClaims().claim(forEmail: "x@acme.example.test")?.connectionID == "corp")

        // The operator's proof of a second domain.
        _ = try await fixture.call("POST", base, token: token, json: ["domain": "corp.example.test"])
        let vouched = try await fixture.call("POST", "\(base)/corp.example.test/verify", token: token, json: ["method": "operator"])
        #expect(try vouched.json()["verified_by"] == "operator")

        // Remove: If-Match; then it is gone.
        let boundTag = try #require(bound.header("ETag"))
        expectAdminError(try await fixture.call("DELETE", bindPath, token: token), 428, "precondition_required")
        let removed = try await fixture.call("DELETE", bindPath, token: token, headers: ["If-Match": boundTag])
        #expect(removed.status == 204)
        #expect(try claims.domain("acme.example.test") == nil)
        expectAdminError(try await fixture.call("GET", bindPath, token: token), 404, "not_found", field: "domain")
        let events = try fed.server.environment.storage.audit.recentAudit(limit: 200).map(\.event)
        for event in ["organization_domain_claimed", "organization_domain_verified", "organization_domain_bound", "organization_domain_removed",
                      "organization_domain_verification_failed"] {
            #expect(events.contains(event), "no \(event)")
        }
        let actors = try fed.server.environment.storage.audit.recentAudit(limit: 200).filter { $0.event == "organization_domain_claimed" }.map(\.actor)
        #expect(actors.allSatisfy { $0?.contains("orgops") == true }, "\(actors)")
    }
}
