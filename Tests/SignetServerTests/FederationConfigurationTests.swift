import Foundation
import SignetFederation
@testable import SignetServer
import SignetTesting
import SignetWire
import Testing

@Suite(.endToEndLimit) struct FederationConfigurationTests {
    @Test func readsConnectionsWithDefaults() throws {
        let json = #"""
        {"connections": [
          {"id": "google", "type": "google", "client_id": "g.apps", "client_secret": "env:G_SECRET", "allow_linking": true,
           "hosted_domain": "Example.com", "native_client_ids": ["ios.apps"], "native_sign_in": true},
          {"id": "apple", "type": "apple", "client_id": "com.example.signin", "team_id": "T", "key_id": "K", "private_key": "file:apple.p8"},
          {"id": "github", "type": "github", "client_id": "Iv1", "client_secret": "file:/run/gh", "enabled": false},
          {"id": "corp", "type": "oidc", "display_name": "Corp SSO", "issuer": "https://login.corp.example", "client_id": "signet",
           "client_secret": "env:CORP", "home_realm_domains": ["corp.example"], "scopes": ["openid", "email"],
           "token_endpoint_auth_method": "client_secret_post", "logo_url": "https://corp.example/logo.png", "timeout_seconds": 5}
        ]}
        """#
        let configuration = try SignetConfiguration(parsing: Data(json.utf8))
        let connections = configuration.connections
        #expect(connections.map(\.connection.id) == ["google", "apple", "github", "corp"])
        let google = connections[0].connection
        #expect(google.issuer == "https://accounts.google.com")
        #expect(google.displayName == "Google")
        #expect(google.scopes == ["openid", "email", "profile"])
        #expect(google.allowLinking)
        #expect(google.hostedDomain == "example.com")
        #expect(google.nativeClientIDs == ["ios.apps"] && google.nativeSignIn)
        #expect(google.authenticationMethod == .clientSecretPost)
        #expect(connections[0].clientSecret == .environment("G_SECRET"))
        let apple = connections[1]
        #expect(apple.connection.issuer == "https://appleid.apple.com")
        #expect(apple.privateKey == .file("apple.p8") && apple.clientSecret == nil)
        #expect(!connections[2].connection.enabled)
        #expect(!connections[2].connection.nativeSignIn)
        let corp = connections[3].connection
        #expect(corp.homeRealmDomains == ["corp.example"])
        #expect(corp.authenticationMethod == .clientSecretPost)
        #expect(corp.timeoutSeconds == 5)
        #expect(corp.allowLinking == false)
    }

    @Test(arguments: [
        (#"{"connections": {}}"#, "connections", "must be an array"),
        (#"{"connections": [{"type": "google", "client_id": "x", "client_secret": "env:S"}]}"#, "connections[0].id", "required"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S", "clinet_id": "y"}]}"#, "connections[0].clinet_id", "did you mean \"client_id\""),
        (#"{"connections": [{"id": "g", "type": "gogle", "client_id": "x"}]}"#, "connections[0].type", "must be one of"),
        (#"{"connections": [{"id": "G!", "type": "google", "client_id": "x", "client_secret": "env:S"}]}"#, "connections[0].id", "a-z 0-9"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "hunter2"}]}"#, "connections[0].client_secret", "reference"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x"}]}"#, "connections[0].client_secret", "is required"),
        (#"{"connections": [{"id": "o", "type": "oidc", "client_id": "x", "client_secret": "env:S"}]}"#, "connections[0].issuer", "required for an oidc"),
        (#"{"connections": [{"id": "o", "type": "oidc", "issuer": "http://idp.example", "client_id": "x", "client_secret": "env:S"}]}"#, "connections[0].issuer", "https"),
        (#"{"connections": [{"id": "a", "type": "apple", "client_id": "x", "team_id": "T", "key_id": "K"}]}"#, "connections[0].private_key", "required for an apple"),
        (#"{"connections": [{"id": "a", "type": "apple", "client_id": "x", "client_secret": "env:S", "team_id": "T", "key_id": "K", "private_key": "file:k"}]}"#, "connections[0].client_secret", "mints the client secret"),
        (#"{"connections": [{"id": "g", "type": "github", "client_id": "x", "client_secret": "env:S", "native_sign_in": true, "native_client_ids": ["a"]}]}"#, "connections[0].native_sign_in", "no ID tokens"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S", "native_sign_in": true}]}"#, "connections[0].native_client_ids", "at least one"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S", "native_client_ids": "a"}]}"#, "connections[0].native_client_ids", "array of strings"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S", "timeout_seconds": 0}]}"#, "connections[0].timeout_seconds", "between 1 and 60"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S", "home_realm_domains": ["a.example"]}, {"id": "h", "type": "google", "client_id": "x", "client_secret": "env:S", "home_realm_domains": ["a.example"]}]}"#, "connections[1].home_realm_domains[0]", "already belongs"),
        (#"{"connections": [{"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S"}, {"id": "g", "type": "google", "client_id": "x", "client_secret": "env:S"}]}"#, "connections[1].id", "another connection"),
        (#"{"connections": [{"id": "g", "type": "github", "client_id": "x", "client_secret": "env:S", "hosted_domain": "a.example"}]}"#, "connections[0].hosted_domain", "only for google"),
    ])
    func connectionMistakesAreReported(json: String, path: String, message: String) {
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.issues.contains { $0.path == path && $0.message.contains(message) }, "\(error)")
        }
    }

    @Test func anAppleConnectionWithoutKeyServesNativeSignInOnly() throws {
        let json = #"{"connections": [{"id": "apple", "type": "apple", "client_id": "com.example.web", "native_sign_in": true, "native_client_ids": ["com.example.ios"]}]}"#
        let configuration = try SignetConfiguration(parsing: Data(json.utf8))
        #expect(configuration.connections.count == 1)
        let half = #"{"connections": [{"id": "apple", "type": "apple", "client_id": "x", "native_sign_in": true, "native_client_ids": ["i"], "team_id": "T"}]}"#
        #expect(throws: ConfigurationError.self) { _ = try SignetConfiguration(parsing: Data(half.utf8)) }
    }

    @Test func referenceListsTheConnectionSettings() {
        let reference = ConfigurationReference.markdown()
        for entry in Settings.connection { #expect(reference.contains("`\(entry.key)`"), "\(entry.key)") }
        for key in ["native_client_ids", "native_sign_in", "allow_linking", "home_realm_domains"] { #expect(reference.contains("`\(key)`")) }
    }
}
