import Foundation
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// Provider metadata over real HTTP (OpenID Connect Discovery 1.0 §4, RFC 8414 §3).
@Suite(.endToEndLimit) struct DiscoveryEndToEndTests {
    @Test(arguments: [Routes.openIDConfiguration, Routes.oauthAuthorizationServer])
    func metadataNamesThisIssuerExactly(path: String) async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = HTTPTestClient()
        let response = try await client.get(server.url(path))
        #expect(response.status == 200, "\(response)")
        #expect(response.mediaType == "application/json")
        let cacheControl = try #require(response.header("cache-control"))
        #expect(cacheControl.contains("max-age="))
        let metadata = try response.json()
        // Discovery §4.3: the issuer in the document must equal the issuer the client used, byte for byte.
        #expect(metadata["issuer"] == .string(server.issuer))
        #expect(server.issuer == "http://127.0.0.1:\(server.port)")
        let jwksURI = try #require(metadata["jwks_uri"]?.stringValue)
        #expect(jwksURI.hasPrefix(server.issuer + "/"))
        let algorithms = try #require(metadata["id_token_signing_alg_values_supported"]?.arrayValue)
        #expect(algorithms.contains("RS256"))   // OpenID Connect Core §15.1
        #expect(metadata["response_types_supported"]?.arrayValue?.contains("code") == true)

        let jwks = try await client.get(try #require(URL(string: jwksURI)))
        #expect(jwks.status == 200)
        #expect(try jwks.json()["keys"]?.arrayValue?.isEmpty == false)
    }

    @Test func bothDocumentsAreTheSameBytes() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = HTTPTestClient()
        let openID = try await client.get(server.url(Routes.openIDConfiguration))
        let oauth = try await client.get(server.url(Routes.oauthAuthorizationServer))
        #expect(openID.body == oauth.body)
        // Deterministic output: a second fetch is byte-identical.
        #expect(try await client.get(server.url(Routes.openIDConfiguration)).body == openID.body)
    }

    /// `grant_types_supported` is the token endpoint's registry, in its order, and nothing else:
    /// a grant registered at /token is advertised, and one that is not (implicit) never is.
    @Test func grantTypesSupportedAreTheTokenEndpointsRegistry() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let metadata = try await HTTPTestClient().get(server.url(Routes.openIDConfiguration)).json()
        let advertised = try #require(metadata["grant_types_supported"]?.arrayValue).compactMap(\.stringValue)
        #expect(advertised == server.application.tokenEndpoint.grantTypes.map(\.rawValue))
        #expect(advertised == ["authorization_code", "refresh_token", "client_credentials",
                               "urn:ietf:params:oauth:grant-type:token-exchange"])
    }

    @Test func configuredIssuerWithPathIsServedAsConfigured() async throws {
        let server = try TestServer { $0.issuer = "http://localhost:1/tenant-a" }
        defer { server.stop() }
        let metadata = try await HTTPTestClient().get(server.url(Routes.openIDConfiguration)).json()
        #expect(metadata["issuer"] == "http://localhost:1/tenant-a")
        #expect(metadata["jwks_uri"] == "http://localhost:1/tenant-a/jwks.json")
    }
}
