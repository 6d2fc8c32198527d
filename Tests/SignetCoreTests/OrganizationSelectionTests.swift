import Foundation
@testable import SignetCore
import SignetStore
import SignetWire
import Testing

/// Which organization a request for scope `organization` is for, and the flow's organization
/// step, over a temporary store (the HTTP side is OrganizationClaimsTests).
@Suite struct OrganizationSelectionTests {
    @Test func theParameterIsAnIDOrASlug() {
        for good in ["acme", "a1", "acme-inc", "org_k3v9abc", String(repeating: "a", count: 63)] {
            #expect(OrganizationSelection.isWellFormed(good), "\(good)")
        }
        for bad in ["", "a", "Acme", "-acme", "acme-", "org_", "org_ABC", "org_a-b", "acme corp", "ac_me", "<b>",
                    String(repeating: "a", count: 64), "org_" + String(repeating: "a", count: 61), "ümlaut"] {
            #expect(!OrganizationSelection.isWellFormed(bad), "\(bad)")
        }
    }

    /// A client allowed organizations, Alice, and organizations acme (Alice an admin) and beta.
    struct Teams {
        let fixture: CoreFixture
        let alice: UserRecord
        let acme = OrganizationRecord(id: "org_acme0000000000000001", slug: "acme", name: "Acme",
                                      createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
        let beta = OrganizationRecord(id: "org_beta0000000000000001", slug: "beta", name: "Beta",
                                      createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))

        init() throws {
            fixture = try CoreFixture()
            let now = fixture.clock.now
            try fixture.storage.clients.upsertClient(ClientRecord(
                id: "teams", name: "Teams", isPublic: true, firstParty: true, redirectURIs: ["com.example.teams:/cb"],
                allowedScopes: ["openid", "organization", "offline_access"], grantTypes: ["authorization_code", "refresh_token"],
                tokenEndpointAuthMethod: "none", allowedResources: ["https://api.example.com"], createdAt: now, updatedAt: now))
            alice = try fixture.makeUser()
            try fixture.storage.organizations.insertOrganization(acme)
            try fixture.storage.organizations.insertOrganization(beta)
            try fixture.storage.organizations.addMember(organizationID: acme.id, userID: alice.id, roles: ["admin"], at: now)
        }

        func request(_ organization: String? = nil) throws -> AuthorizationRequest {
            var request = try fixture.request("teams", scope: "openid organization")
            request.organization = organization
            return request
        }
    }

    @Test func theDecisionGoesThroughTheUsersOwnMemberships() throws {
        let t = try Teams()
        let selection = OrganizationSelection(server: t.fixture.server)
        guard case .chosen(let only) = try selection.decide(try t.request(), userID: t.alice.id) else {
            Issue.record("one membership is chosen"); return
        }
        #expect(only.organization.id == t.acme.id && only.member.roles == ["admin"])
        #expect(try selection.decide(try t.request("acme"), userID: t.alice.id) == .chosen(only))
        #expect(try selection.decide(try t.request(t.acme.id), userID: t.alice.id) == .chosen(only))
        // Not a member, or no such organization: the same refusal.
        #expect(try selection.decide(try t.request("beta"), userID: t.alice.id) == .refused)
        #expect(try selection.decide(try t.request("nope"), userID: t.alice.id) == .refused)
        #expect(try selection.decide(try t.fixture.request("teams", scope: "openid"), userID: t.alice.id) == .notRequested)
        try t.fixture.storage.organizations.addMember(organizationID: t.beta.id, userID: t.alice.id, roles: ["member"], at: t.fixture.clock.now)
        guard case .pick(let both) = try selection.decide(try t.request(), userID: t.alice.id) else {
            Issue.record("two memberships are picked from"); return
        }
        #expect(both.map(\.organization.slug) == ["acme", "beta"])
        _ = try t.fixture.storage.organizations.removeMember(organizationID: t.acme.id, userID: t.alice.id)
        _ = try t.fixture.storage.organizations.removeMember(organizationID: t.beta.id, userID: t.alice.id)
        #expect(try selection.decide(try t.request(), userID: t.alice.id) == .noMembership)
    }

    @Test func theCodeKeepsTheOrganizationAndAPickUsesTheRequestUp() throws {
        let t = try Teams()
        let (token, _) = try t.fixture.signedIn(t.alice)
        let client = try t.fixture.client("teams")
        guard case .code(let code, _, _) = try t.fixture.flow.start(try t.request(), client: client, sessionToken: token) else {
            Issue.record("one organization: a code"); return
        }
        let record = try t.fixture.codeRecord(code)
        #expect(record.organizationID == t.acme.id)
        #expect(record.scope == "openid organization")

        try t.fixture.storage.organizations.addMember(organizationID: t.beta.id, userID: t.alice.id, roles: ["member"], at: t.fixture.clock.now)
        guard case .pickOrganization(let handle) = try t.fixture.flow.start(try t.request(), client: client, sessionToken: token) else {
            Issue.record("two organizations: the page"); return
        }
        let pending = try t.fixture.flow.pending(handle: handle)
        t.fixture.clock.advance(by: 30)
        let session = try t.fixture.flow.sessions.active(token: token)
        guard case .code(let picked, _, _) = try t.fixture.flow.chooseOrganization(pending, session: session, organizationID: t.beta.id) else {
            Issue.record("a pick gives the code"); return
        }
        #expect(try t.fixture.codeRecord(picked).organizationID == t.beta.id)
        // The old handle is used up.
        #expect(throws: FlowError.requestNotFound) { try t.fixture.flow.pending(handle: handle) }
    }
}
