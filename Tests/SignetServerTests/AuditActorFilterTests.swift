import Foundation
import SignetJOSE
import SignetServer
import SignetSQL
import SignetStore
import SignetTesting
import Testing

/// The audit trail filtered by actor in the store, with store-side paging: the console's filter
/// and `GET /admin/v1/audit?actor=` find an actor's events however many newer events of others
/// there are (the console once filtered the newest 5,000 in memory).
@Suite(.endToEndLimit) struct AuditActorFilterTests {
    /// One event by `ops-old`, then 5,001 by someone else, then 51 more by `ops-old`.
    static func seed(_ storage: any SignetStorage) throws {
        let stores = try #require(storage as? any SQLStorage).stores
        var rows = SQLBulkRows()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        rows.audit = [AuditEvent(event: "client_updated", actor: "ops-old", detail: "{}", at: at)]
            + (0..<5_001).map { AuditEvent(event: "client_updated", actor: "noise", detail: "{}", at: at.addingTimeInterval(Double($0))) }
            + (0..<51).map { AuditEvent(event: "client_updated", actor: "ops-old", detail: "{}", at: at.addingTimeInterval(6_000 + Double($0))) }
        try stores.bulkInsert(rows)
    }

    @Test func theConsoleFiltersByActorInTheStore() async throws {
        let env = try Interactive(adminListener: true)
        defer { env.stop() }
        let (browser, _) = try await ConsoleTests().signedIn(env)
        try Self.seed(env.server.environment.storage)
        let first = try await browser.open(env.server.adminURL("/console/audit", query: [("actor", "ops-old")]))
        #expect(first.status == 200)
        #expect(first.response.text.components(separatedBy: "<td>ops-old</td>").count - 1 == 50)
        #expect(!first.response.text.contains("<td>noise</td>"))
        let older = try #require(browser.page.flatMap { ConsoleTests.attribute("href", ofID: "older", in: $0.text) })
        let second = try await browser.open(env.server.adminURL(older.components(separatedBy: "?")[0], query: ConsoleTests.pairs(older)))
        #expect(second.status == 200)
        // The oldest one, behind 5,001 newer events of another actor, is on the second page.
        #expect(second.response.text.components(separatedBy: "<td>ops-old</td>").count - 1 == 2, "\(second.response.text)")
        #expect(!second.response.text.contains("id=\"older\""))
    }

    @Test func theAdminAPIFiltersByActor() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        try Self.seed(fixture.server.environment.storage)
        let token = try await fixture.token(["admin:audit:read"])
        let first = try await fixture.call("GET", "/admin/v1/audit?actor=ops-old&limit=50", token: token)
        #expect(first.status == 200, "\(first)")
        let items = try first.json()["items"]?.arrayValue ?? []
        #expect(items.count == 50 && items.allSatisfy { $0["actor"]?.stringValue == "ops-old" })
        let cursor = try #require(try first.json()["next_cursor"]?.stringValue)
        let second = try await fixture.call("GET", "/admin/v1/audit?actor=ops-old&limit=50&cursor=\(cursor)", token: token)
        let rest = try second.json()["items"]?.arrayValue ?? []
        #expect(rest.count == 2 && rest.allSatisfy { $0["actor"]?.stringValue == "ops-old" }, "\(second)")
        #expect(try second.json()["next_cursor"] == .null)
        // With another filter, and refused when empty or without the scope.
        let none = try await fixture.call("GET", "/admin/v1/audit?actor=ops-old&event=user_created", token: token)
        #expect(try none.json()["items"]?.arrayValue?.isEmpty == true, "\(none)")
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?actor=", token: token), 400, "invalid_request", field: "actor")
        let other = try await fixture.token(["admin:clients:read"])
        expectAdminError(try await fixture.call("GET", "/admin/v1/audit?actor=ops-old", token: other), 403, "insufficient_scope")
    }
}
