import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetFederation
import SignetHTTP
import SignetKit
import SignetServer
import SignetTesting
import Testing

/// SignetKit's native ID-token sign-in against a real Signet whose connections point at mock
/// Google and Apple providers: the nonce request, the provider's token minted with it (as
/// Credential Manager or Apple's sheet would return it), and the RFC 8693 exchange.
@Suite("SignetKit native ID-token sign-in", .endToEndLimit) struct NativeIDTokenExchangeTests {
    /// A Signet with `google` and `apple` connections for native sign-in and a first-party
    /// public client `native-app` allowed the token exchange.
    final class Fixture: Sendable {
        let google: MockProvider
        let apple: MockProvider
        let server: TestServer
        let secrets: TemporaryDirectory
        /// The issuer of connection `keyless`: Google's discovery document, but its `jwks_uri`
        /// names a port nobody listens on.
        let keyless: HTTPServer

        init() throws {
            // An Apple connection must have its signing key for the browser leg, even if unused here.
            secrets = try TemporaryDirectory(prefix: "native-kit")
            let appleKey = try PrivateKey.generate(.p256)
            let pem = "-----BEGIN PRIVATE KEY-----\n" + Data(appleKey.pkcs8DER).base64EncodedString(options: [.lineLength64Characters])
                + "\n-----END PRIVATE KEY-----\n"
            let keyPath = try secrets.write(pem, to: "apple.p8")
            let googleSecret = try secrets.write("web-client-secret", to: "google-secret")
            let clock = TestServer.makeClock()
            let google = try MockProvider(flavor: .google, clientID: "1234-android.apps.googleusercontent.com", clock: { clock.now })
            let apple = try MockProvider(flavor: .apple, clientID: "com.example.app", clock: { clock.now })
            self.google = google
            self.apple = apple
            let keylessPort = try FreePort.pick()
            let keylessIssuer = "http://127.0.0.1:\(keylessPort)"
            let deadJWKS = "http://127.0.0.1:\(try FreePort.pick())/jwks"
            let router = Router()
            router.get("/.well-known/openid-configuration", .sync { _ in
                .json(Array(("{\"issuer\":\"\(keylessIssuer)\",\"authorization_endpoint\":\"\(keylessIssuer)/authorize\","
                    + "\"token_endpoint\":\"\(keylessIssuer)/token\",\"jwks_uri\":\"\(deadJWKS)\","
                    + "\"response_types_supported\":[\"code\"],\"subject_types_supported\":[\"public\"],"
                    + "\"id_token_signing_alg_values_supported\":[\"RS256\"]}").utf8))
            })
            keyless = HTTPServer(configuration: HTTPServerConfiguration(listen: [try ListenAddress("127.0.0.1:\(keylessPort)")],
                                                                        threadCount: 1), router: router)
            try keyless.start()
            server = try TestServer(clock: clock) { configuration in
                func connection(_ id: String, _ type: ConnectionType, _ provider: MockProvider) -> Connection {
                    Connection(id: id, type: type, clientID: "web-client", issuer: provider.issuer, enabled: true,
                               appleTeamID: type == .apple ? "TEAM123456" : nil, appleKeyID: type == .apple ? "KEY1234567" : nil,
                               nativeClientIDs: [provider.clientID], nativeSignIn: true)
                }
                configuration.connections = [
                    ConfiguredConnection(connection: connection("google", .google, google), clientSecret: .file(googleSecret)),
                    ConfiguredConnection(connection: connection("apple", .apple, apple), privateKey: .file(keyPath)),
                    ConfiguredConnection(connection: Connection(id: "keyless", type: .google, clientID: "web-client", issuer: keylessIssuer,
                                                                enabled: true, nativeClientIDs: [google.clientID], nativeSignIn: true),
                                         clientSecret: .file(googleSecret)),
                ]
            }
            let registration = ClientRegistration(server: server.application.authorizationServer)
            _ = try registration.register(ClientSpec(id: "native-app", isPublic: true, scope: "openid profile email offline_access",
                                                     grantTypes: ["urn:ietf:params:oauth:grant-type:token-exchange", "refresh_token"],
                                                     firstParty: true))
            _ = try registration.register(ClientSpec(id: "browser-app", isPublic: true, redirectURIs: ["http://127.0.0.1/callback"],
                                                     scope: "openid", grantTypes: ["authorization_code"]))
        }

        func stop() {
            keyless.stop()
            server.stop()
            secrets.remove()
            google.stop()
            apple.stop()
        }

        func client(id: String = "native-app", storage: any TokenStorage = InMemoryTokenStorage()) async throws -> SignInClient {
            var configuration = ClientConfiguration(issuer: server.issuer, clientID: id, redirectURI: "http://127.0.0.1/callback")
            configuration.scopes = ["openid", "email", "offline_access"]
            let clock = server.clock
            return try await SignInClient.discover(configuration, storage: storage, clock: { clock.now })
        }
    }

    @Test func googleTokenSignsInAndTheSessionRefreshes() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        #expect(client.provider.nativeNonceEndpoint?.absoluteString == fixture.server.issuer + "/native/nonce")

        let nonce = try await client.requestNativeNonce()
        #expect(nonce.value.hasPrefix("sgn_"))
        #expect(nonce.expiresAt == fixture.server.clock.now.addingTimeInterval(300))
        #expect(!nonce.description.contains(nonce.value))

        let session = try await client.exchangeNativeIDToken(try fixture.google.mintIDToken(nonce: nonce.value),
                                                             connection: "google", nonce: nonce)
        let tokens = try #require(await session.currentTokens)
        #expect(tokens.claims["email"] == "alice@example.com")
        #expect(tokens.refreshToken != nil)
        #expect(tokens.scope?.contains("offline_access") == true)
        // The user Signet provisioned is linked to the provider's subject.
        let link = try fixture.server.environment.storage.users.federatedIdentity(
            connectionID: "google", issuer: fixture.google.issuer, subject: fixture.google.user.subject)
        #expect(link?.userID == tokens.subject)

        // Saved like any session: a relaunch restores it, and refresh works.
        #expect(await client.restoreSession()?.subject == tokens.subject)
        let renewed = try await session.refresh()
        #expect(renewed.accessToken != tokens.accessToken)
        #expect(renewed.subject == tokens.subject)

        // The nonce is spent: the same token again is refused, typed.
        await #expect(throws: SignInError.tokenError(code: "invalid_grant", description: "The nonce is unknown, expired or already used.")) {
            _ = try await client.exchangeNativeIDToken(try fixture.google.mintIDToken(nonce: nonce.value), connection: "google", nonce: nonce)
        }
    }

    @Test func unreachableProviderKeysAreTemporarilyUnavailableEveryTime() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try await fixture.client()
        // The first exchange fetches the key set and fails; the second is inside the refetch
        // interval: still the fetch's failure (temporarily_unavailable), never "unknown key" (invalid_grant).
        for _ in 0..<2 {
            let nonce = try await client.requestNativeNonce()
            await #expect(throws: SignInError.tokenError(code: "temporarily_unavailable",
                                                         description: "The identity provider's keys cannot be fetched; try again later.")) {
                _ = try await client.exchangeNativeIDToken(try fixture.google.mintIDToken(nonce: nonce.value), connection: "keyless", nonce: nonce)
            }
        }
        #expect(client.restoreSession() == nil, "nothing was saved")
    }

    @Test func appleTokenCarriesTheHashAndTheRawNonceIsSent() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try await fixture.client()
        let nonce = try await client.requestNativeNonce()
        #expect(nonce.sha256Hex == RandomToken.sha256Hex(nonce.value))
        let session = try await client.exchangeNativeIDToken(try fixture.apple.mintIDToken(nonce: nonce.sha256Hex),
                                                             connection: "apple", nonce: nonce)
        #expect(await session.currentTokens?.claims["email"] == "alice@example.com")
    }

    @Test func badTokensAndNoncesAreRefusedAndStoreNothing() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let storage = InMemoryTokenStorage()
        let client = try await fixture.client(storage: storage)
        let google = fixture.google
        let cases: [(String, @Sendable (NativeSignInNonce) throws -> String)] = [
            ("another nonce", { _ in try google.mintIDToken(nonce: "sgn_" + RandomToken.make()) }),
            ("another audience", { try google.mintIDToken(nonce: $0.value, audience: "someone-elses-app") }),
            ("bad signature", { try google.mintIDToken(nonce: $0.value, signing: .badSignature) }),
            ("expired", { nonce in try google.mintIDToken(nonce: nonce.value) { $0.exp = google.issuedAt(-60) } }),
        ]
        for (name, mint) in cases {
            let nonce = try await client.requestNativeNonce()
            let token = try mint(nonce)
            do throws(SignInError) {
                _ = try await client.exchangeNativeIDToken(token, connection: "google", nonce: nonce)
                Issue.record("\(name): accepted")
            } catch {
                guard error.code == .tokenError, let code = error.oauthError else { Issue.record("\(name): \(error)"); continue }
                #expect(code == "invalid_grant", "\(name)")
            }
        }
        // A connection that does not exist.
        let nonce = try await client.requestNativeNonce()
        await #expect(throws: SignInError.self) {
            _ = try await client.exchangeNativeIDToken(try google.mintIDToken(nonce: nonce.value), connection: "github", nonce: nonce)
        }
        #expect(client.restoreSession() == nil, "nothing was stored")

        // A nonce past its lifetime is refused before any request.
        fixture.server.clock.advance(by: 301)
        await #expect(throws: SignInError.pendingSignInExpired) {
            _ = try await client.exchangeNativeIDToken(try google.mintIDToken(nonce: nonce.value), connection: "google", nonce: nonce)
        }
    }

    @Test func aClientNotAllowedNativeSignInGetsNoNonce() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try await fixture.client(id: "browser-app")
        await #expect(throws: SignInError.tokenError(code: "unauthorized_client", description: "This client may not use native sign-in.")) {
            _ = try await client.requestNativeNonce()
        }
        // A provider without the endpoint (not Signet): typed, no request.
        let other = try SignInClient(configuration: client.configuration,
                                     provider: ProviderConfiguration(metadata: client.provider.metadata, issuerParameterSupported: true),
                                     storage: InMemoryTokenStorage())
        await #expect(throws: SignInError.nativeSignInUnavailable) { _ = try await other.requestNativeNonce() }
    }
}
