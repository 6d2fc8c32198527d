import Foundation
import SignetHTTP
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// `passkeys.*` and `native_apps.*`, and the association files they produce, checked against
/// Apple's ("Supporting associated domains", applinks.Details) and Google's (Digital Asset Links,
/// "Declare website associations") documented formats.
@Suite("Passkey settings and association files", .endToEndLimit) struct PasskeySettingsTests {
    static let apple = #"[{"team_id": "ABCDE12345", "bundle_id": "com.example.app"}]"#
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")
    static let android = #"[{"package": "com.example.app", "sha256_cert_fingerprints": [""# + fingerprint + #""]}]"#

    @Test func theRPIDDefaultsToTheIssuerHostAndMayBeAParentDomain() throws {
        let plain = try SignetConfiguration(parsing: Data(#"{"issuer": "https://id.example.com"}"#.utf8))
        #expect(plain.passkeyRPID == "id.example.com")
        #expect(plain.passkeyOrigins == ["https://id.example.com"])
        let parent = try SignetConfiguration(parsing: Data(#"""
            {"issuer": "https://id.example.com:8443", "passkeys": {"rp_id": "example.com",
             "allowed_origins": ["https://www.example.com", "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"]}}
            """#.utf8))
        #expect(parent.passkeyRPID == "example.com")
        #expect(parent.passkeyOrigins == ["https://id.example.com:8443", "https://www.example.com",
                                          "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"])
    }

    @Test(arguments: [
        (#"{"issuer": "https://id.example.com", "passkeys": {"rp_id": "other.com"}}"#, "passkeys.rp_id", "parent domain"),
        (#"{"issuer": "https://id.example.com", "passkeys": {"rp_id": "com"}}"#, "passkeys.rp_id", "top-level domain"),
        (#"{"issuer": "https://id.example.com", "passkeys": {"rp_id": "ample.com"}}"#, "passkeys.rp_id", "parent domain"),
        (#"{"passkeys": {"rp_id": "https://example.com"}}"#, "passkeys.rp_id", "host name"),
        (#"{"passkeys": {"allowed_origins": ["http://www.example.com"]}}"#, "passkeys.allowed_origins[0]", "https origin"),
        (#"{"passkeys": {"allowed_origins": ["https://www.example.com/path"]}}"#, "passkeys.allowed_origins[0]", "https origin"),
        (#"{"passkeys": {"allowed_origins": ["android:apk-key-hash:short"]}}"#, "passkeys.allowed_origins[0]", "43 characters"),
        (#"{"native_apps": {"apple": [{"team_id": "abc", "bundle_id": "com.example.app"}]}}"#, "native_apps.apple[0]", "team_id"),
        (#"{"native_apps": {"apple": [{"team_id": "ABCDE12345", "bundle_id": "app"}]}}"#, "native_apps.apple[0]", "bundle_id"),
        (#"{"native_apps": {"apple": [{"team_id": "ABCDE12345", "bundle_id": "com.a.b", "x": 1}]}}"#, "native_apps.apple[0]", "unknown key"),
        (#"{"native_apps": {"apple": {"team_id": "ABCDE12345"}}}"#, "native_apps.apple", "array of objects"),
        (#"{"native_apps": {"android": [{"package": "com.example.app", "sha256_cert_fingerprints": ["ab:cd"]}]}}"#,
         "native_apps.android[0]", "32 colon-separated hex bytes"),
        (#"{"native_apps": {"android": [{"package": "com.example.app", "sha256_cert_fingerprints": []}]}}"#,
         "native_apps.android[0]", "non-empty"),
        (#"{"passkey": {}}"#, "passkey", "did you mean \"passkeys\""),
    ])
    func badValuesAreReportedWithTheirPath(json: String, path: String, message: String) {
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.issues.contains { $0.path == path && $0.message.contains(message) }, "\(error)")
        }
    }

    func keys(_ value: JSONValue?) -> Set<String> { Set(value?.objectValue?.keys.map { $0 } ?? []) }

    /// Apple's documented shape: top-level services; `webcredentials.apps` of `TEAMID.bundle`;
    /// `applinks.details[]` with `appIDs` and `components` whose keys are among `/`, `?`, `#`,
    /// `exclude`, `comment`, `caseSensitive`, `percentEncoded`.
    func checkAppleFormat(_ document: JSONValue) {
        let object = document.objectValue ?? [:]
        #expect(Set(object.keys).isSubset(of: ["applinks", "webcredentials", "appclips", "activitycontinuation"]))
        let appID = #/^[A-Z0-9]{10}\.[A-Za-z0-9.\-]+$/#
        for app in object["webcredentials"]?["apps"]?.arrayValue ?? [] {
            #expect((try? appID.wholeMatch(in: app.stringValue ?? "")) != nil, "\(app)")
        }
        for detail in object["applinks"]?["details"]?.arrayValue ?? [] {
            #expect(keys(detail).isSubset(of: ["appID", "appIDs", "components", "defaults"]))
            for id in detail["appIDs"]?.arrayValue ?? [] { #expect((try? appID.wholeMatch(in: id.stringValue ?? "")) != nil) }
            for component in detail["components"]?.arrayValue ?? [] {
                #expect(keys(component).isSubset(of: ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]))
                #expect(component["/"]?.stringValue?.hasPrefix("/") == true)
            }
        }
    }

    /// Google's documented shape: an array of statements, each `relation` (strings) and `target`
    /// with `namespace` `android_app`, `package_name`, `sha256_cert_fingerprints` (upper-case
    /// colon-separated SHA-256).
    func checkGoogleFormat(_ document: JSONValue) {
        let fingerprint = #/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/#
        for statement in document.arrayValue ?? [] {
            #expect(keys(statement) == ["relation", "target"])
            #expect(statement["relation"]?.arrayValue?.allSatisfy { $0.stringValue?.hasPrefix("delegate_permission/common.") == true } == true)
            #expect(keys(statement["target"]) == ["namespace", "package_name", "sha256_cert_fingerprints"])
            #expect(statement["target"]?["namespace"] == "android_app")
            for print in statement["target"]?["sha256_cert_fingerprints"]?.arrayValue ?? [] {
                #expect((try? fingerprint.wholeMatch(in: print.stringValue ?? "")) != nil)
            }
        }
    }

    @Test func theAssociationFilesListTheAppsAndTheClaimedRedirectPathsAsDocumented() async throws {
        let server = try TestServer { configuration in
            configuration.issuer = configuration.issuer.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let parsed = try SignetConfiguration(parsing: Data(#"{"native_apps": {"apple": \#(Self.apple), "android": \#(Self.android)}}"#.utf8))
            configuration.nativeApps = parsed.nativeApps
        }
        defer { server.stop() }
        let now = server.clock.now
        // A first-party app with a claimed https redirect on this domain, and one elsewhere; a
        // third-party client's https redirect on this domain is not the apps' to open.
        try server.environment.storage.clients.upsertClient(ClientRecord(
            id: "ios", name: "iOS", isPublic: true, firstParty: true,
            redirectURIs: ["https://localhost/app/callback", "https://other.example/cb", "com.example.app:/cb"],
            allowedScopes: ["openid"], grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        try server.environment.storage.clients.upsertClient(ClientRecord(
            id: "partner", name: "Partner", isPublic: true, redirectURIs: ["https://localhost/partner/cb"],
            allowedScopes: ["openid"], grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))

        let aasa = try await HTTPTestClient().get(server.url(Routes.appleAppSiteAssociation))
        #expect(aasa.status == 200)
        #expect(aasa.header("Content-Type") == "application/json")
        #expect(aasa.header("Location") == nil)
        let apple = try aasa.json()
        #expect(apple == ["webcredentials": ["apps": ["ABCDE12345.com.example.app"]],
                          "applinks": ["details": [["appIDs": ["ABCDE12345.com.example.app"], "components": [["/": "/app/callback"]]]]]])
        checkAppleFormat(apple)

        let links = try await HTTPTestClient().get(server.url(Routes.assetLinks))
        #expect(links.status == 200)
        #expect(links.header("Content-Type") == "application/json")
        let google = try links.json()
        #expect(google == [["relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"],
                            "target": ["namespace": "android_app", "package_name": "com.example.app",
                                       "sha256_cert_fingerprints": [.string(Self.fingerprint)]]]])
        checkGoogleFormat(google)
    }

    @Test func withoutAppsTheFilesAreNotFound() async throws {
        try await TestServer.with { server in
            let aasa = try await HTTPTestClient().get(server.url(Routes.appleAppSiteAssociation))
            #expect(aasa.status == 404)
            #expect(try aasa.json()["error"] == "not_found")
            #expect(try await HTTPTestClient().get(server.url(Routes.assetLinks)).status == 404)
        }
    }
}
