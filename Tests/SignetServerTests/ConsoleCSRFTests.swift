import Foundation
import SignetCore
import SignetHTTP
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Every state-changing console form, sign-out included, is refused without its CSRF field, with
/// a wrong one, and with another browser's: one table over the admin listener's route table
/// (`SignetApplication.consoleFormPaths`), so a form added later is covered without a new test.
@Suite(.endToEndLimit) struct ConsoleCSRFTests {
    /// Every field some console form reads, so a form that skipped the check would act.
    static let body = [("type", "native"), ("name", "Forged"), ("id", "com.example.forged"), ("slug", "forged"),
                       ("redirect_uris", "com.example.forged:/cb"), ("confirm", "yes"), ("role", "admin"),
                       ("email", "eve@example.com"), ("domain", "forged.example")]

    @Test func everyConsoleFormIsRefusedWithoutItsCSRFField() async throws {
        let env = try Interactive(adminListener: true)
        defer { env.stop() }
        let environment = env.server.environment
        try AdminService(environment: environment).setOperatorRole(env.user, "admin")
        // The things a forged post could change: an app, another user, an organization with a member.
        let bob = UserRecord(id: "user-bob", email: "bob@example.com", emailVerified: true, createdAt: Date(), updatedAt: Date())
        try environment.storage.users.insertUser(bob)
        let app = "com.example.notes"
        let (browser, _) = try await signIn(env)
        _ = try await browser.open(env.server.adminURL("/console/apps/new"))
        let made = try await browser.submit(formWithAction: "/console/apps", fields: ["type": "native", "name": "Notes", "id": app,
                                                                                      "redirect_uris": "com.example.notes:/cb"])
        #expect(made.status == 200, "\(made)")
        let org = try environment.makeOrganizations().create(slug: "acme", name: "Acme", owner: bob.id)
        // Another operator's browser, for a field that is valid, but for another browser.
        let (other, _) = try await signIn(env)
        _ = try await other.open(env.server.adminURL("/console/keys"))
        let othersField = try #require(other.forms.first { $0.action.path == "/console/keys/rotate" }?.value("csrf"))

        let paths = env.server.application.consoleFormPaths()
        // The table holds every kind of form, sign-out among them.
        for expected in ["/console/signout", "/console/apps", "/console/keys/rotate", "/console/users/{id}/delete",
                         "/console/users/{id}/sessions/{item}", "/console/orgs", "/console/orgs/{id}/invite",
                         "/console/orgs/{id}/domain-operator/{item}"] {
            #expect(paths.contains(expected), "\(expected) not in \(paths)")
        }
        let before = try snapshot(env)
        let client = HTTPTestClient(cookies: browser.cookies)
        for pattern in paths {
            let id = pattern.hasPrefix("/console/apps/") ? app : pattern.hasPrefix("/console/orgs/") ? org.id : bob.id
            let path = pattern.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{item}", with: bob.id)
            for (label, csrf) in [("no field", [(String, String)]()), ("a wrong field", [("csrf", "AAAA")]),
                                  ("another browser's field", [("csrf", othersField)])] {
                let response = try await client.post(env.server.adminURL(path), form: Self.body + csrf)
                #expect(response.status == 403, "\(path) with \(label): \(response.status)")
                #expect(response.text.contains("Form expired"), "\(path) with \(label)")
                expectHardened(response)
            }
        }
        #expect(try snapshot(env) == before)
        // Still signed in: sign-out without the field ended nothing.
        #expect(try await client.get(env.server.adminURL("/console/apps")).status == 200)
    }

    /// A browser signed in to the console as the test user.
    func signIn(_ env: Interactive) async throws -> (FormBrowser, BrowserOutcome) {
        let browser = FormBrowser()
        browser.trust(env.server.url("/"))
        #expect(try await browser.open(env.server.adminURL("/console")).url.path == Routes.signIn)
        let home = try await env.submitCredentials(browser)
        #expect(home.status == 200 && home.url.path == "/console", "\(home)")
        return (browser, home)
    }

    /// What any console form changes, as one comparable value: every form's change is audited,
    /// and the rest is read back.
    func snapshot(_ env: Interactive) throws -> [String] {
        let storage = env.server.environment.storage
        return [
            "audit \(try storage.audit.listAudit(AuditQuery(limit: 1)).first.map { "\($0.sequence)" } ?? "none")",
            "clients \(try storage.clients.allClients().map(\.id).sorted())",
            "users \(try storage.users.user(id: "user-bob").map { "\($0.email) \($0.disabledAt == nil)" } ?? "gone")",
            "keys \(try storage.keys.allKeys().count)",
            "orgs \(try storage.organizations.organizations(limit: 100, after: nil).map(\.slug))",
        ]
    }
}
