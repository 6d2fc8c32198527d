import Foundation
import Testing
import SignetStore
import SignetWire
@testable import SignetCore

@Suite struct ClientRegistrationTests {
    @Test func publicClientDefaults() throws {
        let fixture = try TokenFixture()
        let (record, secret) = try fixture.registration.register(ClientSpec(id: "native", isPublic: true,
                                                                            redirectURIs: ["com.example.app:/cb"]))
        #expect(secret == nil)
        #expect(record.secretHash == nil)
        #expect(record.tokenEndpointAuthMethod == "none")
        #expect(record.grantTypes == ["authorization_code", "refresh_token"])
        #expect(record.allowedScopes == ["openid", "profile", "email", "offline_access"])
        #expect(record.firstParty == false)
        #expect(record.idTokenAlgorithm == "RS256")
        #expect(try fixture.storage.clients.client(id: "native") == record)
    }

    @Test func confidentialClientGetsAHashedSecretShownOnce() throws {
        let fixture = try TokenFixture()
        let (record, secret) = try fixture.registration.register(ClientSpec(
            id: "svc", isPublic: false, scope: "orders.read", grantTypes: ["client_credentials"]))
        let shown = try #require(secret)
        #expect(shown.hasPrefix("sgcs_") && shown.utf8.count == 5 + 43)
        #expect(record.tokenEndpointAuthMethod == "client_secret_basic")
        #expect(record.secretHash == fixture.server.clients.hashSecret(shown))
        #expect(record.secretHash != Array(shown.utf8))
        #expect(!record.description.contains(shown))
        let client = try #require(try fixture.server.clients.client(id: "svc"))
        #expect(fixture.server.clients.verifySecret(shown, for: client))
        #expect(!fixture.server.clients.verifySecret(shown + "x", for: client))
    }

    @Test func confidentialDefaultsToCodeAndRefresh() throws {
        let fixture = try TokenFixture()
        let record = try fixture.registration.register(ClientSpec(id: "web", isPublic: false,
                                                                  redirectURIs: ["https://web.example.com/cb"])).record
        #expect(record.grantTypes == ["authorization_code", "refresh_token"])
    }

    @Test func idTokenAlgorithmFollowsThePolicy() throws {
        let fixture = try TokenFixture { $0.idTokenAlgorithm = .es256 }
        let record = try fixture.registration.register(ClientSpec(id: "native", isPublic: true, redirectURIs: ["com.example.app:/cb"])).record
        #expect(record.idTokenAlgorithm == "ES256")
    }

    @Test(arguments: [
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], grantTypes: ["authorization_code", "client_credentials"]), "grant_types"),
        (ClientSpec(id: "a", isPublic: false, redirectURIs: ["com.example.app:/cb"]), "redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: false, postLogoutRedirectURIs: ["com.example.app:/out"], grantTypes: ["client_credentials"]), "post_logout_redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: false, grantTypes: []), "grant_types"),
        (ClientSpec(id: "signet-account", isPublic: true, redirectURIs: ["com.example.app:/cb"]), "id"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], scope: "openid account:delete"), "scope"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["http://localhost/cb"]), "redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["https://app.example.com/cb#frag"]), "redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["https://*.example.com/cb"]), "redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["myapp:/cb"]), "redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["http://evil@127.0.0.1/cb"]), "redirect_uris[0]"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb", "com.example.app:/cb"]), "redirect_uris[1]"),
        (ClientSpec(id: "a", isPublic: true), "redirect_uris"),
        (ClientSpec(id: "a b", isPublic: true, redirectURIs: ["com.example.app:/cb"]), "id"),
        (ClientSpec(id: "", isPublic: true, redirectURIs: ["com.example.app:/cb"]), "id"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], grantTypes: ["password"]), "grant_types[0]"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], authenticationMethod: "client_secret_basic"), "token_endpoint_auth_method"),
        (ClientSpec(id: "a", isPublic: false, redirectURIs: ["https://w.example/cb"], authenticationMethod: "none"), "token_endpoint_auth_method"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], idTokenAlgorithm: "HS256"), "id_token_algorithm"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], scope: "openid \"x\""), "scope"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], lifetimes: ClientTokenLifetimes(accessToken: 5)), "access_token_lifetime"),
        (ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"], lifetimes: ClientTokenLifetimes(refreshToken: 999_999_999)), "refresh_token_lifetime"),
    ])
    func refused(spec: ClientSpec, field: String) throws {
        let fixture = try TokenFixture()
        let issues = fixture.registration.problems(spec)
        #expect(issues.contains { $0.field == field }, "\(issues)")
        #expect(throws: ClientRegistrationError.self) { try fixture.registration.register(spec) }
        #expect(try fixture.storage.clients.allClients().isEmpty)
    }

    @Test func publicClientsCannotHaveASecret() throws {
        let fixture = try TokenFixture()
        let spec = ClientSpec(id: "a", isPublic: true, redirectURIs: ["com.example.app:/cb"])
        #expect(throws: ClientRegistrationError.self) { try fixture.registration.record(spec, secretHash: [1, 2, 3]) }
        let confidential = ClientSpec(id: "b", isPublic: false, redirectURIs: ["https://w.example/cb"])
        #expect(throws: ClientRegistrationError.self) { try fixture.registration.record(confidential, secretHash: nil) }
    }

    @Test func duplicateIDIsRefused() throws {
        let fixture = try TokenFixture()
        try fixture.addPublicClient("dup")
        #expect(throws: ClientRegistrationError.self) { try fixture.addPublicClient("dup") }
    }

    @Test func rotateSecretReplacesTheOldOne() throws {
        let fixture = try TokenFixture()
        let old = try fixture.addConfidentialClient()
        let new = try fixture.registration.rotateSecret(clientID: "web")
        #expect(new != old)
        let record = try #require(try fixture.storage.clients.client(id: "web"))
        #expect(record.secretHash == fixture.server.clients.hashSecret(new))
        try fixture.addPublicClient()
        #expect(throws: ClientRegistrationError.self) { try fixture.registration.rotateSecret(clientID: "app") }
        #expect(throws: ClientRegistrationError.self) { try fixture.registration.rotateSecret(clientID: "nobody") }
    }
}
