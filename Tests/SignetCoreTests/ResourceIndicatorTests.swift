import Foundation
@testable import SignetCore
import SignetStore
import SignetWire
import Testing

@Suite struct ResourceIndicatorTests {
    static let api = "https://api.example.com"
    static let files = "https://files.example.com"

    func client(allowing resources: [String]) throws -> Client {
        try Client(record: ClientRecord(
            id: "c", name: "c", isPublic: true, redirectURIs: ["com.example.app:/cb"], allowedScopes: ["openid"],
            grantTypes: ["authorization_code"], tokenEndpointAuthMethod: "none", allowedResources: resources,
            createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0)))
    }

    func parameters(_ resources: [String]) -> RequestParameters {
        RequestParameters(resources.map { (name: "resource", value: $0) })
    }

    @Test(arguments: ["https://api.example.com", "https://api.example.com/v1?x=1", "http://127.0.0.1:9090"])
    func wellFormed(_ value: String) {
        #expect(ResourceIndicator.isWellFormed(value))
    }

    @Test(arguments: ["api", "/relative", "https://api.example.com#f", "urn:example:api", "https://", "",
                      "https://a.example/" + String(repeating: "x", count: 2048)])
    func malformed(_ value: String) {
        #expect(!ResourceIndicator.isWellFormed(value))
    }

    @Test func aClientGetsOnlyItsListedResources() throws {
        let none = try client(allowing: [])
        #expect(try ResourceIndicator.requested(parameters([]), client: none) == [])
        #expect(throws: OAuthError(.invalidTarget, "The resource is not allowed for this client.")) {
            try ResourceIndicator.requested(parameters([Self.api]), client: none)
        }
        let both = try client(allowing: [Self.api, Self.files])
        #expect(try ResourceIndicator.requested(parameters([Self.files, Self.api, Self.files]), client: both) == [Self.files, Self.api])
        #expect(throws: OAuthError(.invalidTarget, "resource must be an absolute URI without a fragment.")) {
            try ResourceIndicator.requested(parameters([Self.api + "#x"]), client: both)
        }
        #expect(throws: OAuthError(.invalidTarget, "Name at most 8 resources.")) {
            try ResourceIndicator.requested(parameters(Array(repeating: Self.api, count: 9)), client: both)
        }
    }

    @Test func narrowingNeverWidens() throws {
        let both = try client(allowing: [Self.api, Self.files])
        #expect(try ResourceIndicator.narrowed([Self.api, Self.files], parameters([]), client: both) == [Self.api, Self.files])
        #expect(try ResourceIndicator.narrowed([Self.api, Self.files], parameters([Self.files]), client: both) == [Self.files])
        #expect(throws: OAuthError(.invalidTarget, "The resource was not granted to this client.")) {
            try ResourceIndicator.narrowed([Self.api], parameters([Self.files]), client: both)
        }
        #expect(throws: OAuthError(.invalidTarget, "The resource was not granted to this client.")) {
            try ResourceIndicator.narrowed([], parameters([Self.api]), client: both)
        }
        // A resource taken off the client's list is dropped, and cannot be asked for.
        let apiOnly = try client(allowing: [Self.api])
        #expect(try ResourceIndicator.narrowed([Self.api, Self.files], parameters([]), client: apiOnly) == [Self.api])
        #expect(throws: OAuthError(.invalidTarget, "The resource was not granted to this client.")) {
            try ResourceIndicator.narrowed([Self.api, Self.files], parameters([Self.files]), client: apiOnly)
        }
    }
}
