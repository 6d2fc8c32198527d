import Foundation
import SignetJOSE
import SignetResource
import Testing

/// SignetResource reads the organization of a validated token (`org_id`, `org_slug`,
/// `org_roles`) and refuses one of no, another or a role-less organization.
@Suite("The organization of a validated token", .endToEndLimit) struct TokenOrganizationTests {
    static func token(_ claims: [String: JSONValue]) -> ValidatedAccessToken {
        var all: [String: JSONValue] = ["sub": "user-1", "client_id": "app", "scope": "openid organization"]
        for (name, value) in claims { all[name] = value }
        return ValidatedAccessToken(claims: JWTClaims(all))
    }

    @Test func readsTheOrganizationAndItsRoles() throws {
        let token = Self.token(["org_id": "org_abc", "org_slug": "acme", "org_roles": ["admin", "billing"]])
        #expect(token.organization?.id == "org_abc")
        #expect(token.organization?.slug == "acme")
        #expect(token.organization?.roles == ["admin", "billing"])
        #expect(try token.requireOrganization("org_abc", anyRole: ["owner", "admin"]).id == "org_abc")
        #expect(try token.requireOrganization().slug == "acme")
    }

    @Test func refusesNoOtherOrARolelessOrganization() {
        let none = Self.token([:])
        #expect(none.organization == nil)
        #expect(throws: BearerError(.insufficientScope, "the token is not for an organization", scope: "organization", realm: "api")) {
            try none.requireOrganization(realm: "api")
        }
        #expect(Self.token(["org_id": ""]).organization == nil)
        let member = Self.token(["org_id": "org_abc", "org_slug": "acme", "org_roles": ["member"]])
        #expect(throws: BearerError(.insufficientScope, "the token is for another organization", scope: "organization")) {
            try member.requireOrganization("org_other")
        }
        // A slug is not an id.
        #expect(throws: BearerError(.insufficientScope, "the token is for another organization", scope: "organization")) {
            try member.requireOrganization("acme")
        }
        #expect(throws: BearerError(.insufficientScope, "the user lacks the role this needs in the organization", scope: "organization")) {
            try member.requireOrganization("org_abc", anyRole: ["admin"])
        }
        // RFC 6750 §3.1: insufficient_scope is a 403.
        #expect(BearerError(.insufficientScope).status == 403)
    }
}
