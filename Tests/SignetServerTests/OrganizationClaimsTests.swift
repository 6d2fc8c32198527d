import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetPostgres
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Scope `organization` over real HTTP: the claims `org_id`, `org_slug` and `org_roles` in the ID
/// token, the access token, userinfo and every refresh (with the membership as it is then); the
/// organization page for a user in several; and the refusals (a client not allowed organizations,
/// a non-member, an unknown organization, bad `organization` values), after which nothing was
/// issued.
@Suite(.endToEndLimit) struct OrganizationClaimsTests {
    /// Interactive's server and user, a client allowed organizations (`orgs`, first-party,
    /// loopback) and three organizations: Alice is `admin` and `billing` in acme, `member` in
    /// beta, and not in gamma.
    struct Fixture {
        let env: Interactive
        let acme: OrganizationRecord
        let beta: OrganizationRecord
        let gamma: OrganizationRecord
        /// The PostgreSQL database of a `postgres` fixture, dropped when the fixture goes.
        let database: PostgresStorage?
        let directory: TemporaryDirectory?
        static let scope = "openid organization offline_access"

        /// `postgres`: the server runs on a fresh PostgreSQL database (`SIGNET_TEST_POSTGRES_URL`).
        init(betaMember: Bool = true, postgres: Bool = false, adminListener: Bool = false) throws {
            if postgres {
                let admin = try RealPart.postgres()
                let database = try PostgresStorage.temporary(adminConninfo: admin)
                let name = try #require(database.temporaryDatabaseName)
                let directory = try TemporaryDirectory(prefix: "pgorgs")
                let urlFile = try directory.write(PostgresNodesTests.conninfo(admin, database: name), to: "database.conninfo")
                let keyFile = try directory.write(MasterKey.generateHex(random: SystemRandomSource()), to: "master.key")
                env = try Interactive(adminListener: adminListener) {
                    $0.database.driver = .postgres
                    $0.database.url = .file(urlFile)
                    $0.masterKey = .file(keyFile)
                }
                self.database = database
                self.directory = directory
            } else {
                env = try Interactive(adminListener: adminListener)
                database = nil
                directory = nil
            }
            let now = env.server.clock.now
            try env.server.environment.storage.clients.upsertClient(ClientRecord(
                id: "orgs", name: "Team App", isPublic: true, firstParty: true, redirectURIs: [Interactive.loopback],
                allowedScopes: ["openid", "profile", "email", "offline_access", "organization"],
                grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
            try env.server.environment.storage.users.insertUser(UserRecord(id: "gus", email: "gus@example.com", emailVerified: true,
                                                                           createdAt: now, updatedAt: now))
            let orgs = env.server.environment.makeOrganizations()
            acme = try orgs.create(slug: "acme", name: "Acme Corp", owner: "gus")
            beta = try orgs.create(slug: "beta", name: "Beta GmbH")
            gamma = try orgs.create(slug: "gamma", name: "Gamma", owner: "gus")
            _ = try orgs.addRole(acme, "billing")
            try orgs.addMember(acme, userID: env.user.id, roles: ["admin", "billing"])
            if betaMember { try orgs.addMember(beta, userID: env.user.id, roles: ["member"]) }
        }

        func stop() {
            env.stop()
            directory?.remove()
        }

        func authorizeURL(_ pkce: PKCEPair, scope: String = Fixture.scope, client: String = "orgs",
                          extra: [(String, String?)] = []) -> URL {
            env.authorizeURL(client: client, pkce: pkce, extra: [("scope", scope)] + extra)
        }

        /// Redeems a code of the `orgs` client.
        func redeem(_ code: String, _ pkce: PKCEPair) async throws -> TestResponse {
            try await env.redeem(code: code, pkce: pkce, client: "orgs")
        }

        func refresh(_ token: String) async throws -> TestResponse {
            try await HTTPTestClient().post(env.server.url(Routes.token), form: [
                ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "orgs")])
        }

        func userinfo(_ accessToken: String) async throws -> TestResponse {
            try await HTTPTestClient().get(env.server.url(Routes.userinfo), headers: ["Authorization": "Bearer \(accessToken)"])
        }

        /// Nothing was issued to the user: no code waiting, no grant family.
        func expectNothingIssued(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let storage = env.server.environment.storage
            #expect(try storage.refreshTokens.activeRefreshGrants(userID: env.user.id, now: env.server.clock.now).isEmpty,
                    "a grant was made", sourceLocation: sourceLocation)
            #expect(try storage.codes.deleteUnredeemedCodes(userID: env.user.id) == 0, "a code was issued", sourceLocation: sourceLocation)
        }
    }

    /// A JWT's claims (its signature is checked by the server's own endpoints and by SignetResource elsewhere).
    static func claims(_ jwt: String?) throws -> [String: JSONValue] {
        let token = try #require(jwt)
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        return try #require(try JSONValue.parse(Base64URL.decode(String(parts[1])) ?? []).objectValue)
    }

    static func expectOrganization(_ claims: [String: JSONValue], _ org: OrganizationRecord, roles: [String],
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(claims["org_id"]?.stringValue == org.id, "\(claims)", sourceLocation: sourceLocation)
        #expect(claims["org_slug"]?.stringValue == org.slug, "\(claims)", sourceLocation: sourceLocation)
        #expect(claims["org_roles"]?.arrayValue?.compactMap(\.stringValue) == roles, "\(claims)", sourceLocation: sourceLocation)
    }

    static func expectNoOrganization(_ claims: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation) {
        for name in ["org_id", "org_slug", "org_roles"] {
            #expect(claims[name] == nil, "\(name) in \(claims)", sourceLocation: sourceLocation)
        }
    }

    /// The redirect of a refusal: the client's URI with `error`, `state` and `iss` (RFC 9207).
    func expectRefusal(_ outcome: BrowserOutcome, _ error: String, _ fixture: Fixture,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let redirect = try outcome.requireRedirect()
        #expect(outcome.status == 303, sourceLocation: sourceLocation)
        #expect(redirect.base == Interactive.callback, "\(redirect)", sourceLocation: sourceLocation)
        #expect(redirect["error"] == error, "\(redirect)", sourceLocation: sourceLocation)
        #expect(redirect["code"] == nil, sourceLocation: sourceLocation)
        #expect(redirect["state"] == "st-123", sourceLocation: sourceLocation)
        #expect(redirect["iss"] == fixture.env.server.issuer, sourceLocation: sourceLocation)
        return redirect["error_description"]
    }

    @Test func aUserInOneOrganizationGetsItsClaimsInEveryTokenAndRefresh() async throws {
        try await claimsInEveryTokenAndRefresh(try Fixture(betaMember: false))
    }

    /// The same on PostgreSQL (the organization column of codes and grants, the memberships read).
    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func theClaimsOnPostgreSQL() async throws {
        try await claimsInEveryTokenAndRefresh(try Fixture(betaMember: false, postgres: true))
    }

    func claimsInEveryTokenAndRefresh(_ f: Fixture) async throws {
        defer { f.stop() }
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(f.authorizeURL(pkce))
        // One organization: no page, straight to the code.
        let redirect = try await f.env.submitCredentials(browser).requireRedirect()
        let code = try #require(redirect["code"])
        let response = try await f.redeem(code, pkce)
        #expect(response.status == 200, "\(response)")
        let json = try response.json()
        #expect(json["scope"]?.stringValue == Fixture.scope)
        Self.expectOrganization(try Self.claims(json["id_token"]?.stringValue), f.acme, roles: ["admin", "billing"])
        let access = try Self.claims(json["access_token"]?.stringValue)
        Self.expectOrganization(access, f.acme, roles: ["admin", "billing"])
        #expect(access["scope"]?.stringValue == Fixture.scope)
        let accessToken = try #require(json["access_token"]?.stringValue)
        let info = try await f.userinfo(accessToken)
        #expect(info.status == 200, "\(info)")
        Self.expectOrganization(try #require(try info.json().objectValue), f.acme, roles: ["admin", "billing"])

        // A refresh keeps the organization, with the roles as they are now.
        let orgs = f.env.server.environment.makeOrganizations()
        _ = try orgs.setRoles(f.acme, userID: f.env.user.id, roles: ["member"])
        let refreshed = try await f.refresh(try #require(json["refresh_token"]?.stringValue))
        #expect(refreshed.status == 200, "\(refreshed)")
        let second = try refreshed.json()
        Self.expectOrganization(try Self.claims(second["id_token"]?.stringValue), f.acme, roles: ["member"])
        Self.expectOrganization(try Self.claims(second["access_token"]?.stringValue), f.acme, roles: ["member"])
        // Userinfo reads the membership now too, even for the earlier access token.
        let laterInfo = try await f.userinfo(accessToken)
        Self.expectOrganization(try #require(try laterInfo.json().objectValue), f.acme, roles: ["member"])

        // The membership gone behind the grant's back (a store-level removal, which does not end
        // the grants as `Organizations.removeMember` does): userinfo drops the claims, the
        // refresh's own check refuses it and ends the family.
        _ = try f.env.server.environment.storage.organizations.removeMember(organizationID: f.acme.id, userID: f.env.user.id)
        let afterRemoval = try await f.userinfo(try #require(second["access_token"]?.stringValue))
        #expect(afterRemoval.status == 200)
        Self.expectNoOrganization(try #require(try afterRemoval.json().objectValue))
        let refused = try await f.refresh(try #require(second["refresh_token"]?.stringValue))
        #expect(refused.status == 400, "\(refused)")
        #expect(try refused.json()["error"]?.stringValue == "invalid_grant")
        #expect(refused.header("Cache-Control") == "no-store")
        try f.expectNothingIssued()
        let revoked = try f.env.server.environment.storage.audit.recentAudit(limit: 100).filter { $0.event == "grant_revoked" }
        #expect(revoked.map(\.reason) == ["organization_membership_ended"], "\(revoked)")
        // The family is over: even a member again does not revive it.
        _ = try orgs.addMember(f.acme, userID: f.env.user.id, roles: ["member"])
        #expect(try await f.userinfo(try #require(second["access_token"]?.stringValue)).status == 401)
    }

    @Test func removingAMemberEndsItsGrantsForTheOrganization() async throws {
        let f = try Fixture(betaMember: false)
        defer { f.stop() }
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(f.authorizeURL(pkce))
        let redirect = try await f.env.submitCredentials(browser).requireRedirect()
        let json = try await f.redeem(try #require(redirect["code"]), pkce).json()
        let accessToken = try #require(json["access_token"]?.stringValue)
        #expect(try await f.userinfo(accessToken).status == 200)
        try f.env.server.environment.makeOrganizations().removeMember(f.acme, userID: f.env.user.id)
        // At once: the access token no longer answers, the refresh is refused.
        let info = try await f.userinfo(accessToken)
        #expect(info.status == 401, "\(info)")
        #expect(info.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
        let refused = try await f.refresh(try #require(json["refresh_token"]?.stringValue))
        #expect(refused.status == 400, "\(refused)")
        #expect(try refused.json()["error"]?.stringValue == "invalid_grant")
        try f.expectNothingIssued()
        let removed = try f.env.server.environment.storage.audit.recentAudit(limit: 100).first { $0.event == "organization_member_removed" }
        #expect(removed?.detail.contains("\"grants_revoked\":1") == true, "\(String(describing: removed))")
    }

    @Test func deletingAnOrganizationEndsEveryMembersGrantsForIt() async throws {
        try await deletionEndsTheOrganizationsGrants(try Fixture(adminListener: true))
    }

    /// The same on PostgreSQL (the one `UPDATE … WHERE organization_id` over every member).
    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func deletingAnOrganizationOnPostgreSQL() async throws {
        try await deletionEndsTheOrganizationsGrants(try Fixture(postgres: true, adminListener: true))
    }

    /// Two members of acme (Alice, Bob) each hold a family for it; Alice also holds one for beta
    /// and one without an organization. `DELETE /admin/v1/organizations/acme` ends both acme
    /// families at once (before any refresh looks at the membership), and only them.
    func deletionEndsTheOrganizationsGrants(_ f: Fixture) async throws {
        defer { f.stop() }
        let storage = f.env.server.environment.storage
        let bob = try f.env.server.environment.makeUserService().create(email: "bob@example.com", name: "Bob", password: Interactive.password)
        try f.env.server.environment.makeOrganizations().addMember(f.acme, userID: bob.id, roles: ["member"])

        func signIn(_ extra: [(String, String?)], email: String = Interactive.email) async throws -> [String: JSONValue] {
            let pkce = PKCEPair.generate()
            let browser = FormBrowser()
            _ = try await browser.open(f.authorizeURL(pkce, extra: extra))
            let redirect = try await f.env.submitCredentials(browser, email: email).requireRedirect()
            let response = try await f.redeem(try #require(redirect["code"]), pkce)
            #expect(response.status == 200, "\(response)")
            return try #require(try response.json().objectValue)
        }
        let aliceAcme = try await signIn([("organization", "acme")])
        let bobAcme = try await signIn([("organization", f.acme.id)], email: "bob@example.com")
        let aliceBeta = try await signIn([("organization", "beta")])
        let aliceNone = try await signIn([("scope", "openid offline_access")])
        Self.expectOrganization(try Self.claims(aliceAcme["access_token"]?.stringValue), f.acme, roles: ["admin", "billing"])
        Self.expectOrganization(try Self.claims(aliceBeta["access_token"]?.stringValue), f.beta, roles: ["member"])
        Self.expectNoOrganization(try Self.claims(aliceNone["access_token"]?.stringValue))

        let admin = try AdminFixture(server: f.env.server)
        let writer = try await OrganizationAdminAPITests.token(admin)
        let reader = try await OrganizationAdminAPITests.token(admin, scopes: ["admin:orgs:read"])
        let path = "/admin/v1/organizations/acme"
        let etag = try #require(try await admin.call("GET", path, token: reader).header("ETag"))
        func acmeFamilies() throws -> [GrantRecord] {
            let now = f.env.server.clock.now
            return try (storage.refreshTokens.activeRefreshGrants(userID: f.env.user.id, now: now)
                + storage.refreshTokens.activeRefreshGrants(userID: bob.id, now: now)).filter { $0.organizationID == f.acme.id }
        }
        // Refused deletions change nothing: the organization and both families stay.
        expectAdminError(try await admin.call("DELETE", path, token: reader, headers: ["If-Match": etag]), 403, "insufficient_scope")
        expectAdminError(try await admin.call("DELETE", path, token: writer), 428, "precondition_required")
        expectAdminError(try await admin.call("DELETE", path, token: writer, headers: ["If-Match": "\"stale\""]), 412, "precondition_failed")
        expectAdminError(try await admin.call("DELETE", path, token: nil, headers: ["If-Match": etag]), 401, "missing_token", field: "Authorization")
        #expect(try storage.organizations.organization(id: f.acme.id) != nil)
        let acmeGrants = try acmeFamilies().map(\.grantID)
        #expect(acmeGrants.count == 2)

        let deleted = try await admin.call("DELETE", path, token: writer, headers: ["If-Match": etag])
        #expect(deleted.status == 204, "\(deleted)")
        expectAdminError(try await admin.call("DELETE", path, token: writer, headers: ["If-Match": etag]), 404, "not_found")

        // At once, before any refresh: both acme families are revoked with the organization's reason.
        #expect(try acmeFamilies().isEmpty)
        for id in acmeGrants {
            #expect(try storage.refreshTokens.grant(id: id)?.revokeReason == "organization_deleted")
        }
        let left = try storage.refreshTokens.activeRefreshGrants(userID: f.env.user.id, now: f.env.server.clock.now)
        #expect(Set(left.map(\.organizationID)) == [f.beta.id, nil], "\(left)")
        let event = try storage.audit.recentAudit(limit: 100).first { $0.event == "organization_deleted" }
        #expect(event?.detail.contains("\"grants_revoked\":2") == true, "\(String(describing: event))")
        // The acme access tokens fail userinfo; the refresh tokens are invalid_grant and issue nothing.
        for tokens in [aliceAcme, bobAcme] {
            let info = try await f.userinfo(try #require(tokens["access_token"]?.stringValue))
            #expect(info.status == 401, "\(info)")
            #expect(info.header("WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
            let refused = try await f.refresh(try #require(tokens["refresh_token"]?.stringValue))
            #expect(refused.status == 400, "\(refused)")
            #expect(try refused.json()["error"]?.stringValue == "invalid_grant")
            #expect(refused.header("Cache-Control") == "no-store")
        }
        #expect(try storage.refreshTokens.activeRefreshGrants(userID: bob.id, now: f.env.server.clock.now).isEmpty)
        // Beta's family and the one without an organization still refresh.
        let beta = try await f.refresh(try #require(aliceBeta["refresh_token"]?.stringValue))
        #expect(beta.status == 200, "\(beta)")
        Self.expectOrganization(try Self.claims(try beta.json()["access_token"]?.stringValue), f.beta, roles: ["member"])
        let none = try await f.refresh(try #require(aliceNone["refresh_token"]?.stringValue))
        #expect(none.status == 200, "\(none)")
        Self.expectNoOrganization(try Self.claims(try none.json()["access_token"]?.stringValue))
    }

    @Test func theRequestNamesTheOrganizationBySlugOrID() async throws {
        let f = try Fixture()
        defer { f.stop() }
        for (named, org, roles) in [("beta", f.beta, ["member"]), (f.acme.id, f.acme, ["admin", "billing"])] {
            let pkce = PKCEPair.generate()
            let browser = FormBrowser()
            _ = try await browser.open(f.authorizeURL(pkce, extra: [("organization", named)]))
            let redirect = try await f.env.submitCredentials(browser).requireRedirect()
            let response = try await f.redeem(try #require(redirect["code"]), pkce)
            #expect(response.status == 200, "\(response)")
            Self.expectOrganization(try Self.claims(try response.json()["access_token"]?.stringValue), org, roles: roles)
            Self.expectOrganization(try Self.claims(try response.json()["id_token"]?.stringValue), org, roles: roles)
        }
    }

    @Test func aUserInSeveralOrganizationsPicksOneOnThePage() async throws {
        let f = try Fixture()
        defer { f.stop() }
        _ = try f.env.server.environment.makeOrganizations().update(f.beta, name: "Beta <b>GmbH</b>")
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(f.authorizeURL(pkce))
        let page = try await f.env.submitCredentials(browser)
        #expect(page.status == 200, "\(page)")
        #expect(page.url.path == Routes.organizationPicker)
        expectHardened(page.response)
        #expect(page.response.header("Content-Security-Policy")?.contains("script-src") == false, "no script")
        #expect(!page.response.text.contains("<script"))
        #expect(page.response.text.contains("Choose an organization"))
        #expect(page.response.text.contains("Acme Corp"))
        #expect(page.response.text.contains("Beta &lt;b&gt;GmbH&lt;/b&gt;"), "the name is escaped")
        #expect(!page.response.text.contains("Gamma"), "only the user's own organizations")
        let form = try #require(page.forms.first { $0.action.path == Routes.organizationPicker })
        #expect(form.value("csrf")?.isEmpty == false)
        #expect(Set(form.buttons.filter { $0.name == "organization" }.map(\.value)) == [f.acme.id, f.beta.id])

        // A forged post: without the CSRF field, refused, and the request is still there.
        let forged = try await browser.submit(form, fields: ["organization": f.beta.id], removing: ["csrf"])
        #expect(forged.status == 403, "\(forged)")
        try f.expectNothingIssued()

        let again = try await browser.open(page.url)
        #expect(again.status == 200)
        let chosen = try await browser.submit(formWithAction: Routes.organizationPicker, fields: ["organization": f.beta.id])
        let redirect = try chosen.requireRedirect()
        #expect(redirect["state"] == "st-123" && redirect["iss"] == f.env.server.issuer)
        let response = try await f.redeem(try #require(redirect["code"]), pkce)
        #expect(response.status == 200, "\(response)")
        Self.expectOrganization(try Self.claims(try response.json()["access_token"]?.stringValue), f.beta, roles: ["member"])
        // The request was used up: the page is gone.
        #expect(try await browser.open(page.url).status == 400)

        // In German.
        let german = FormBrowser(preferences: ["Accept-Language": "de"])
        _ = try await german.open(f.authorizeURL(PKCEPair.generate()))
        let seite = try await f.env.submitCredentials(german)
        #expect(seite.response.text.contains("Organisation wählen"), "\(seite.response.text)")
    }

    @Test func theOrganizationPageRefusesWhatTheUserMayNotPick() async throws {
        let f = try Fixture()
        defer { f.stop() }
        // Another user's organization, posted by hand: refused as a non-member, nothing issued.
        let browser = FormBrowser()
        _ = try await browser.open(f.authorizeURL(PKCEPair.generate()))
        _ = try await f.env.submitCredentials(browser)
        let foreign = try await browser.submit(formWithAction: Routes.organizationPicker, fields: ["organization": f.gamma.id])
        _ = try expectRefusal(foreign, "access_denied", f)
        try f.expectNothingIssued()
        // A value that is not an organization id: a 400 page, the request kept. (Signed in
        // already: /authorize goes straight to the page.)
        let picker = try await browser.open(f.authorizeURL(PKCEPair.generate()))
        #expect(picker.url.path == Routes.organizationPicker, "\(picker)")
        let odd = try await browser.submit(formWithAction: Routes.organizationPicker, fields: ["organization": "<b>x</b>"])
        #expect(odd.status == 400, "\(odd)")
        #expect(odd.response.text.contains("Choose one of your organizations."))
        // Cancel: access_denied to the client.
        _ = try await browser.open(picker.url)
        let cancelled = try await browser.submit(formWithAction: Routes.organizationPicker, pressing: "decision")
        _ = try expectRefusal(cancelled, "access_denied", f)
        try f.expectNothingIssued()
        // prompt=none with a session and two organizations: no page may be shown.
        let silent = try await browser.open(f.authorizeURL(PKCEPair.generate(), extra: [("prompt", "none")]))
        _ = try expectRefusal(silent, "interaction_required", f)
        try f.expectNothingIssued()
    }

    @Test func aNonMemberAndAnUnknownOrganizationGetTheSameRefusal() async throws {
        let f = try Fixture()
        defer { f.stop() }
        var descriptions: [String?] = []
        for named in ["gamma", f.gamma.id, "no-such-org", "org_nosuchorganization0"] {
            let browser = FormBrowser()
            _ = try await browser.open(f.authorizeURL(PKCEPair.generate(), extra: [("organization", named)]))
            let outcome = try await f.env.submitCredentials(browser)
            descriptions.append(try expectRefusal(outcome, "access_denied", f))
            try f.expectNothingIssued()
        }
        #expect(Set(descriptions).count == 1, "\(descriptions)")
        #expect(descriptions.first == "The signed-in user is not a member of the requested organization.")
        let refusals = try f.env.server.environment.storage.audit.recentAudit(limit: 100).filter { $0.event == "organization_refused" }
        #expect(refusals.count == 4 && refusals.allSatisfy { $0.reason == "not_a_member" && $0.clientID == "orgs" }, "\(refusals)")
        // With a session already there, the same.
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        _ = try await browser.open(f.authorizeURL(pkce, extra: [("organization", "acme")]))
        _ = try await f.env.submitCredentials(browser)
        let again = try await browser.open(f.authorizeURL(PKCEPair.generate(), extra: [("organization", "no-such-org")]))
        #expect(try expectRefusal(again, "access_denied", f) == descriptions.first)
    }

    @Test func aClientNotAllowedOrganizationsAndBadValuesAreRefusedAtAuthorize() async throws {
        let f = try Fixture()
        defer { f.stop() }
        let http = HTTPTestClient()
        let pkce = PKCEPair.generate()
        let cases: [(String, [(String, String?)], String, String)] = [
            // RFC 6749 §4.1.2.1: a scope the client may not have.
            ("native", [("scope", Fixture.scope)], "invalid_scope", "This client may not ask for an organization."),
            ("native", [("scope", "openid"), ("organization", "acme")], "invalid_request",
             "The organization parameter needs the organization scope."),
            ("orgs", [("scope", "openid"), ("organization", "acme")], "invalid_request",
             "The organization parameter needs the organization scope."),
            ("orgs", [("organization", String(repeating: "a", count: 65))], "invalid_request",
             "The organization parameter must be an organization's id or slug."),
            ("orgs", [("organization", "Acme")], "invalid_request", "The organization parameter must be an organization's id or slug."),
            ("orgs", [("organization", "org_")], "invalid_request", "The organization parameter must be an organization's id or slug."),
            ("orgs", [("organization", "<script>")], "invalid_request", "The organization parameter must be an organization's id or slug."),
        ]
        for (client, extra, error, description) in cases {
            let url = f.authorizeURL(pkce, client: client, extra: extra)
            let response = try await http.get(url)
            #expect(response.status == 303, "\(extra)")
            let redirect = try #require(response.redirect, "\(extra)")
            #expect(redirect["error"] == error, "\(extra): \(redirect)")
            #expect(redirect["error_description"] == description, "\(extra): \(redirect)")
            #expect(redirect["state"] == "st-123")
            #expect(redirect["iss"] == f.env.server.issuer)
            #expect(response.setCookies.isEmpty)
        }
        // RFC 6749 §3.1: an empty value is as if it were not sent: the sign-in page.
        let empty = try await http.get(f.authorizeURL(pkce, extra: [("organization", "")]))
        #expect(empty.status == 303 && empty.location?.hasPrefix(Routes.signIn + "?") == true, "\(empty)")
        // Two organization parameters.
        let twice = URL(string: f.authorizeURL(pkce, extra: [("organization", "acme")]).absoluteString + "&organization=beta")!
        let response = try await http.get(twice)
        #expect(response.status == 303)
        #expect(response.redirect?["error"] == "invalid_request")
        #expect(response.redirect?["error_description"] == "The organization parameter is repeated.")
        try f.expectNothingIssued()
    }

    @Test func aCodeRedeemedAfterTheUserLeftTheOrganizationIsRefused() async throws {
        let f = try Fixture(betaMember: false)
        defer { f.stop() }
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(f.authorizeURL(pkce))
        let code = try #require(try await f.env.submitCredentials(browser).requireRedirect()["code"])
        try f.env.server.environment.makeOrganizations().removeMember(f.acme, userID: f.env.user.id)
        let response = try await f.redeem(code, pkce)
        #expect(response.status == 400, "\(response)")
        #expect(try response.json()["error"]?.stringValue == "invalid_grant")
        #expect(try response.json()["error_description"]?.stringValue == "The user is no longer a member of the organization.")
        try f.expectNothingIssued()
    }

    @Test func aThirdPartyClientAsksConsentAfterTheOrganizationIsPicked() async throws {
        let f = try Fixture()
        defer { f.stop() }
        let now = f.env.server.clock.now
        try f.env.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "partner", name: "Partner App", isPublic: true, redirectURIs: ["https://partner.example.com/cb"],
            allowedScopes: ["openid", "organization"], grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none",
            createdAt: now, updatedAt: now))
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(f.env.authorizeURL(client: "partner", redirectURI: "https://partner.example.com/cb", pkce: pkce,
                                                      extra: [("scope", "openid organization")]))
        let picker = try await f.env.submitCredentials(browser)
        #expect(picker.url.path == Routes.organizationPicker, "\(picker)")
        let consent = try await browser.submit(formWithAction: Routes.organizationPicker, fields: ["organization": f.acme.id])
        #expect(consent.url.path == Routes.consent, "\(consent)")
        #expect(consent.response.text.contains("Know which of your organizations you use it for, and your roles there"))
        let redirect = try await browser.submit(formWithAction: Routes.consent, pressing: "decision").requireRedirect()
        let response = try await f.env.redeem(code: try #require(redirect["code"]), pkce: pkce, client: "partner",
                                              redirectURI: "https://partner.example.com/cb")
        #expect(response.status == 200, "\(response)")
        Self.expectOrganization(try Self.claims(try response.json()["id_token"]?.stringValue), f.acme, roles: ["admin", "billing"])
    }

    @Test func discoveryListsTheScopeAndTheClaims() async throws {
        let f = try Fixture()
        defer { f.stop() }
        let document = try await HTTPTestClient().get(f.env.server.url(Routes.openIDConfiguration)).json()
        #expect(document["scopes_supported"]?.arrayValue?.contains(.string("organization")) == true)
        let claims = document["claims_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(["org_id", "org_slug", "org_roles"].allSatisfy(claims.contains), "\(claims)")
    }

    @Test func aUserInNoOrganizationSignsInWithoutOrganizationClaims() async throws {
        let f = try Fixture()
        defer { f.stop() }
        let orgs = f.env.server.environment.makeOrganizations()
        try orgs.removeMember(f.acme, userID: f.env.user.id)
        try orgs.removeMember(f.beta, userID: f.env.user.id)
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(f.authorizeURL(pkce))
        let redirect = try await f.env.submitCredentials(browser).requireRedirect()
        let response = try await f.redeem(try #require(redirect["code"]), pkce)
        #expect(response.status == 200, "\(response)")
        // RFC 6749 §3.3: the scope issued, without organization.
        #expect(try response.json()["scope"]?.stringValue == "openid offline_access")
        Self.expectNoOrganization(try Self.claims(try response.json()["access_token"]?.stringValue))
        Self.expectNoOrganization(try Self.claims(try response.json()["id_token"]?.stringValue))
    }
}
