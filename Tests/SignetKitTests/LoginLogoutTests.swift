import Foundation
import SignetClientCore
import SignetCore
import SignetKit
import SignetServer
import SignetTesting
import Testing

/// `signet login --logout` (the real binary) says what happened: revoked, or not, and whether
/// the local copy was deleted; a failed revocation exits 1.
@Suite("signet login --logout", .endToEndLimit) struct LoginLogoutTests {
    func logout(_ fixture: KitFixture, clientID: String, home: TemporaryDirectory) async throws -> SubprocessResult {
        try await SignetBinary.run(["login", "--issuer", fixture.server.issuer, "--client-id", clientID, "--insecure-file-storage",
                                    "--logout"],
                                   environment: ["XDG_CONFIG_HOME": home.appending("config"), "DBUS_SESSION_BUS_ADDRESS": ""])
    }

    func storage(_ home: TemporaryDirectory) -> FileTokenStorage {
        FileTokenStorage(directory: FileTokenStorage.defaultDirectory(environment: ["XDG_CONFIG_HOME": home.appending("config")]))
    }

    @Test func aRevokedTokenIsReportedAsRevoked() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let home = try TemporaryDirectory(prefix: "logout-ok")
        defer { home.remove() }
        let client = try await fixture.client(storage: storage(home))
        let session = try await fixture.signIn(client)
        let refreshToken = try #require(await session.currentTokens?.refreshToken)

        let result = try await logout(fixture, clientID: KitFixture.clientID, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the refresh token was revoked and the local copy was deleted"))
        #expect(client.restoreSession() == nil)
        let reuse = try await HTTPTestClient().post(fixture.server.url(Routes.token), form: [
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", KitFixture.clientID)])
        #expect(try reuse.json()["error"]?.stringValue == "invalid_grant")
    }

    @Test func aFailedRevocationIsReportedAndExitsNonZero() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        // A confidential client: the CLI revokes without its secret, and the server refuses (invalid_client).
        _ = try ClientRegistration(server: fixture.server.application.authorizationServer).register(ClientSpec(
            id: "confidential", name: "Confidential", isPublic: false, redirectURIs: ["https://app.example/cb"],
            scope: "openid offline_access", authenticationMethod: "client_secret_basic"))
        let home = try TemporaryDirectory(prefix: "logout-fails")
        defer { home.remove() }
        let files = storage(home)
        let provider = try await ProviderConfiguration.discover(issuer: fixture.server.issuer, http: OutboundHTTP())
        let client = try SignInClient(configuration: ClientConfiguration(issuer: fixture.server.issuer, clientID: "confidential",
                                                                         redirectURI: KitFixture.registeredRedirect),
                                      provider: provider, storage: files, clock: fixture.clock)
        // A stored session for it (its tokens are never used: the revocation is refused first).
        let stored = StoredTokens(accessToken: "at", accessTokenExpiresAt: fixture.server.clock.now.addingTimeInterval(300),
                                  refreshToken: "rt-not-revoked", idToken: nil, scope: "openid", subject: "someone")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try files.write(Self.tokensKey(for: client), Array(try encoder.encode(stored)))
        #expect(client.restoreSession() != nil)

        let result = try await logout(fixture, clientID: "confidential", home: home)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("signed out locally: the local copy was deleted; the refresh token was NOT revoked"))
        #expect(result.stderr.contains("revoking the refresh token failed"))
        #expect(result.stderr.contains("invalid_client"))
        #expect(!result.stdout.contains("was revoked and"))
        #expect(client.restoreSession() == nil, "the local copy is gone")
    }

    /// The storage key of a client's tokens: `signet-<16 hex of SHA-256(issuer \n client_id)>-tokens`.
    static func tokensKey(for client: SignInClient) -> String {
        "signet-" + RandomToken.sha256Hex(client.configuration.issuer + "\n" + client.configuration.clientID).prefix(16) + "-tokens"
    }
}
