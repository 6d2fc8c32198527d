import Foundation
import SignetCore
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// The application type is stored with the client (its record's `extra`), not guessed from the
/// rest: chosen in the console's app form and by the admin API, returned by get and list, and the
/// source of the redirect-URI rules the console shows. A client stored before types were is
/// inferred at read.
@Suite(.endToEndLimit) struct ApplicationTypeTests {
    @Test func theAdminAPIStoresAndReturnsTheType() async throws {
        let fixture = try AdminFixture()
        defer { fixture.stop() }
        let token = try await fixture.token()
        // A confidential client_credentials client without a scope would be guessed "api"; it is a service.
        let created = try await fixture.call("POST", "/admin/v1/clients", token: token, json: .object([
            "id": "billing", "type": "confidential", "application_type": "service", "scope": "",
            "grant_types": .array(["client_credentials"]),
        ]))
        #expect(created.status == 201, "\(created)")
        #expect(try created.json()["client"]?["application_type"]?.stringValue == "service")
        let got = try await fixture.call("GET", "/admin/v1/clients/billing", token: token)
        #expect(try got.json()["application_type"]?.stringValue == "service")
        let list = try await fixture.call("GET", "/admin/v1/clients?filter=billing", token: token)
        #expect(try list.json()["items"]?.arrayValue?.first?["application_type"]?.stringValue == "service")

        // An update that leaves the type out keeps it (and the record's other extra settings).
        var record = try #require(try fixture.server.environment.storage.clients.client(id: "billing"))
        record.extra = Client.extra(mfaRequired: true, applicationType: .service)
        try fixture.server.environment.storage.clients.upsertClient(record)
        let etag = try #require(try await fixture.call("GET", "/admin/v1/clients/billing", token: token).header("ETag"))
        let renamed = try await fixture.call("PATCH", "/admin/v1/clients/billing", token: token, json: .object(["name": "Billing"]),
                                             headers: ["If-Match": etag])
        #expect(renamed.status == 200, "\(renamed)")
        #expect(try renamed.json()["application_type"]?.stringValue == "service")
        let kept = try #require(try fixture.server.environment.storage.clients.client(id: "billing"))
        #expect(Client.ExtraSettings(kept).mfaRequired)

        // The type must fit the rest; the field is named and nothing is stored.
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, json: .object([
            "id": "leaky", "type": "confidential", "application_type": "native", "redirect_uris": .array(["https://a.example.com/cb"]),
        ])), 400, "invalid_request", field: "application_type")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, json: .object([
            "id": "odd", "type": "public", "application_type": "desktop", "redirect_uris": .array(["http://127.0.0.1/cb"]),
        ])), 400, "invalid_request", field: "application_type")
        expectAdminError(try await fixture.call("POST", "/admin/v1/clients", token: token, json: .object([
            "id": "api-with-redirects", "type": "confidential", "application_type": "api",
            "redirect_uris": .array(["https://a.example.com/cb"]),
        ])), 400, "invalid_request", field: "redirect_uris")
        #expect(try fixture.server.environment.storage.clients.client(id: "leaky") == nil)
        #expect(try fixture.server.environment.storage.clients.client(id: "odd") == nil)
        #expect(try fixture.server.environment.storage.clients.client(id: "api-with-redirects") == nil)

        // Without a type it is inferred once, at registration, and stored.
        let public_ = try await fixture.call("POST", "/admin/v1/clients", token: token, json: .object([
            "id": "com.example.cam", "redirect_uris": .array(["com.example.cam:/cb"]),
        ]))
        #expect(try public_.json()["client"]?["application_type"]?.stringValue == "native", "\(public_)")
        let stored = try #require(try fixture.server.environment.storage.clients.client(id: "com.example.cam"))
        #expect(stored.extra.contains("\"application_type\":\"native\""))
        // A record stored before types were is inferred at read.
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "legacy", name: "Legacy", secretHash: Array(repeating: 1, count: 32), isPublic: false, grantTypes: ["client_credentials"],
            tokenEndpointAuthMethod: "client_secret_basic", createdAt: Date(timeIntervalSince1970: 1_800_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_800_000_000)))
        let legacy = try await fixture.call("GET", "/admin/v1/clients/legacy", token: token)
        #expect(try legacy.json()["application_type"]?.stringValue == "api", "\(legacy)")
    }

    @Test func theConsoleStoresTheTypeAndShowsItsRules() async throws {
        let env = try Interactive(adminListener: true)
        defer { env.stop() }
        let (browser, _) = try await ConsoleTests().signedIn(env)
        _ = try await browser.open(env.server.adminURL("/console/apps/new"))
        let form = try #require(browser.page?.text)
        // The new-app form carries every type's rules; the chosen type's are shown.
        #expect(form.contains("<div data-rules=\"native\">") && form.contains("<div data-rules=\"web\" hidden>"))
        let created = try await browser.submit(formWithAction: "/console/apps",
                                               fields: ["type": "web", "name": "Shop", "id": "shop", "redirect_uris": "https://shop.example.com/cb"])
        #expect(created.status == 200)
        let record = try #require(try env.server.environment.storage.clients.client(id: "shop"))
        #expect(Client.ExtraSettings(record).applicationType == .web)
        #expect(record.extra.contains("\"application_type\":\"web\""))
        // The web app's page: its type, and the web rules beside its redirect URIs, checked by the script.
        let page = try await browser.open(env.server.adminURL("/console/apps/shop"))
        let text = page.response.text
        #expect(text.contains("<dd>Web</dd>"))
        #expect(text.contains("data-type=\"web\""))
        #expect(text.contains("Redirect URIs of a web app") && !text.contains("What RFC 8252 allows for native apps"))
        #expect(text.contains("<script src=\"/assets/console-"))
        #expect(page.response.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        // A native app's page shows RFC 8252's rules.
        _ = try await browser.open(env.server.adminURL("/console/apps/new"))
        _ = try await browser.submit(formWithAction: "/console/apps",
                                     fields: ["type": "native", "name": "Cam", "redirect_uris": "com.example.cam:/cb"])
        let native = try await browser.open(env.server.adminURL("/console/apps/com.example.cam"))
        #expect(native.response.text.contains("What RFC 8252 allows for native apps"))
        #expect(native.response.text.contains("data-type=\"native\""))
    }
}
