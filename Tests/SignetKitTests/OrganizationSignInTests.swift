import Foundation
import SignetClientCore
import SignetCore
import SignetKit
import SignetResource
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// An app signs in for an organization with SignetKit (`organization:`), against the real server;
/// an API (SignetResource) validates the issued access token and reads its organization and roles,
/// before and after a refresh.
@Suite("Signing in for an organization", .endToEndLimit) struct OrganizationSignInTests {
    @Test func anAppSignsInForAnOrganizationAndTheAPIReadsItsRoles() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let now = fixture.server.clock.now
        // The client is allowed organizations (scope `organization` among its scopes).
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: KitFixture.clientID, name: "Native", isPublic: true, firstParty: true,
            redirectURIs: [KitFixture.registeredRedirect],
            allowedScopes: ["openid", "profile", "email", "offline_access", "organization"],
            grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        let orgs = fixture.server.environment.makeOrganizations()
        let acme = try orgs.create(slug: "acme", name: "Acme")
        let beta = try orgs.create(slug: "beta", name: "Beta")
        try orgs.addMember(acme, userID: fixture.userID, roles: ["admin"])
        try orgs.addMember(beta, userID: fixture.userID, roles: ["member"])

        let client = try await fixture.client()
        let session = try await fixture.signIn(client, organization: "acme")
        let tokens = try #require(await session.currentTokens)
        #expect(tokens.scope?.contains("organization") == true, "\(String(describing: tokens.scope))")

        let metadata = try await DiscoveryClient.fetch(issuer: fixture.server.issuer, http: OutboundHTTP())
        let validator = AccessTokenValidator(issuer: fixture.server.issuer, audience: fixture.server.issuer,
                                             keys: JWKSCache(jwksURI: metadata.jwksURI, http: OutboundHTTP()), clock: fixture.clock)
        let token = try await validator.validate(authorization: "Bearer \(tokens.accessToken)")
        let organization = try #require(token.organization)
        #expect(organization.id == acme.id && organization.slug == "acme" && organization.roles == ["admin"], "\(organization)")
        let org = try token.requireOrganization(acme.id, anyRole: ["owner", "admin"], realm: "api")
        #expect(org.roles == ["admin"])
        // Another organization's API, or a role the user lacks: insufficient_scope.
        #expect(throws: BearerError.self) { try token.requireOrganization(beta.id, realm: "api") }
        #expect(throws: BearerError.self) { try token.requireOrganization(acme.id, anyRole: ["owner"], realm: "api") }

        // The roles change; the refreshed token says so.
        _ = try orgs.setRoles(acme, userID: fixture.userID, roles: ["owner"])
        let refreshed = try await session.refresh()
        let after = try await validator.validate(token: refreshed.accessToken)
        #expect(after.organization?.id == acme.id && after.organization?.roles == ["owner"], "\(String(describing: after.organization))")
        #expect(throws: Never.self) { try after.requireOrganization(acme.id, anyRole: ["owner"], realm: "api") }
    }
}
