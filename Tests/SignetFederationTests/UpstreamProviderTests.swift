import Foundation
@testable import SignetClientCore
import SignetCrypto
@testable import SignetFederation
import SignetTesting
import SignetWire
import Testing

@Suite(.endToEndLimit) struct UpstreamProviderTests {
    static func query(_ url: String) throws -> URLQuery { try URLQuery(queryOf: url) }

    @Test func googleAuthorizationURLCarriesStateNonceAndPKCE() async throws {
        let mock = try MockProvider(flavor: .google)
        defer { mock.stop() }
        let connection = Connection(id: "google", type: .google, clientID: mock.clientID, issuer: mock.issuer, hostedDomain: "Example.com")
        let provider = try UpstreamProvider(connection: connection, credentials: ConnectionCredentials(clientSecret: "s"),
                                            callbackURL: "https://id.example.com/oauth2/callback/google", http: OutboundHTTP())
        let url = try await provider.authorizationURL(state: "sgn_state", nonce: "n+1 /", codeChallenge: "chal", loginHint: "a@example.com")
        #expect(url.hasPrefix(mock.authorizationURL.absoluteString + "?"))
        let query = try Self.query(url)
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == mock.clientID)
        #expect(query["redirect_uri"] == "https://id.example.com/oauth2/callback/google")
        #expect(query["scope"] == "openid email profile")
        #expect(query["state"] == "sgn_state")
        #expect(query["nonce"] == "n+1 /")
        #expect(query["code_challenge"] == "chal")
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["hd"] == "example.com")
        #expect(query["login_hint"] == "a@example.com")
        #expect(query["response_mode"] == nil)
        // Strict encoding: '+' and ' ' never appear raw.
        #expect(url.contains("nonce=n%2B1%20%2F"))
    }

    @Test func appleAsksForFormPostAndGitHubSendsNoNonce() async throws {
        let apple = try MockProvider(flavor: .apple)
        defer { apple.stop() }
        let key = try PrivateKey.generate(.p256)
        let pem = "-----BEGIN PRIVATE KEY-----\n" + Data(key.pkcs8DER).base64EncodedString() + "\n-----END PRIVATE KEY-----"
        let appleProvider = try UpstreamProvider(
            connection: Connection(id: "apple", type: .apple, clientID: "svc", issuer: apple.issuer, appleTeamID: "T", appleKeyID: "K"),
            credentials: ConnectionCredentials(applePrivateKeyPEM: pem), callbackURL: "https://x/cb", http: OutboundHTTP())
        let appleURL = try await appleProvider.authorizationURL(state: "s", nonce: "n", codeChallenge: "c")
        #expect(try Self.query(appleURL)["response_mode"] == "form_post")
        #expect(try Self.query(appleURL)["scope"] == "openid email name")
        let github = try UpstreamProvider(
            connection: Connection(id: "gh", type: .github, clientID: "gh", authorizationEndpoint: "https://gh.test/login/oauth/authorize"),
            credentials: ConnectionCredentials(clientSecret: "s"), callbackURL: "https://x/cb", http: OutboundHTTP())
        let githubURL = try await github.authorizationURL(state: "s", nonce: "n", codeChallenge: "c")
        #expect(githubURL.hasPrefix("https://gh.test/login/oauth/authorize?"))
        #expect(try Self.query(githubURL)["nonce"] == nil)
        #expect(try Self.query(githubURL)["scope"] == "read:user user:email")
    }

    @Test func appleConnectionWithoutKeyIsMisconfigured() throws {
        #expect(throws: FederationError.self) {
            _ = try UpstreamProvider(connection: Connection(id: "apple", type: .apple, clientID: "svc"), credentials: ConnectionCredentials(),
                                     callbackURL: "https://x/cb", http: OutboundHTTP())
        }
    }

    @Test func tokenEndpointAuthenticationComesFromTheConfigurationThenDiscovery() throws {
        func method(_ type: ConnectionType, configured: ClientAuthenticationMethod? = nil,
                    offered: [String]?) throws -> ClientAuthenticationMethod {
            let connection = Connection(id: "c", type: type, clientID: "c", issuer: "https://op.example",
                                        authenticationMethod: configured)
            let provider = try UpstreamProvider(connection: connection, credentials: ConnectionCredentials(clientSecret: "s"),
                                                callbackURL: "https://x/cb", http: OutboundHTTP())
            let metadata = ProviderMetadata(issuer: "https://op.example", authorizationEndpoint: URL(fileURLWithPath: "/a"),
                                            tokenEndpoint: nil, jwksURI: URL(fileURLWithPath: "/j"),
                                            tokenEndpointAuthMethodsSupported: offered)
            return try provider.authenticationMethod(metadata)
        }
        // OpenID Connect Discovery §3: an absent list means client_secret_basic.
        #expect(try method(.oidc, offered: nil) == .clientSecretBasic)
        #expect(try method(.oidc, offered: ["client_secret_post", "client_secret_basic"]) == .clientSecretBasic)
        #expect(try method(.oidc, offered: ["private_key_jwt", "client_secret_post"]) == .clientSecretPost)
        #expect(throws: FederationError.self) { try method(.oidc, offered: ["private_key_jwt"]) }
        // What the configuration says wins; other types keep their defaults.
        #expect(try method(.oidc, configured: .clientSecretBasic, offered: ["client_secret_post"]) == .clientSecretBasic)
        #expect(try method(.oidc, configured: ClientAuthenticationMethod.none, offered: ["private_key_jwt"]) == ClientAuthenticationMethod.none)
        #expect(try method(.google, offered: ["client_secret_basic"]) == .clientSecretPost)
    }

    /// `Connection.discoveryDocumentURL`: the configured URL, else the issuer's standard location by
    /// the one rule of `DiscoveryClient.discoveryURL(for:)` (OIDC Discovery §4.1).
    @Test func discoveryDocumentIsTheConfiguredOneOrTheIssuers() {
        #expect(Connection(id: "o", type: .oidc, clientID: "c", issuer: "https://op.example/").discoveryDocumentURL?.absoluteString
                == "https://op.example/.well-known/openid-configuration")
        #expect(Connection(id: "g", type: .google, clientID: "c").discoveryDocumentURL?.absoluteString
                == "https://accounts.google.com/.well-known/openid-configuration")
        #expect(Connection(id: "o", type: .oidc, clientID: "c", issuer: "https://op.example",
                           discoveryURL: "https://meta.example/op").discoveryDocumentURL?.absoluteString == "https://meta.example/op")
        #expect(Connection(id: "o", type: .oidc, clientID: "c", issuer: "").discoveryDocumentURL == nil)
    }

    @Test func discoveryWithAnotherIssuerIsRefused() async throws {
        let mock = try MockProvider(flavor: .generic)
        defer { mock.stop() }
        mock.behaviour.wrongDiscoveryIssuer = true
        let provider = try UpstreamProvider(connection: Connection(id: "o", type: .oidc, clientID: "c", issuer: mock.issuer),
                                            credentials: ConnectionCredentials(clientSecret: "s"), callbackURL: "https://x/cb", http: OutboundHTTP())
        await #expect(throws: FederationError.self) { _ = try await provider.authorizationURL(state: "s", nonce: "n", codeChallenge: "c") }
    }

    @Test func homeRealmDirectoryMapsDomainsOfEnabledConnections() {
        let directory = HomeRealmDirectory(connections: [
            Connection(id: "corp", type: .oidc, clientID: "c", issuer: "https://corp", homeRealmDomains: ["Corp.Example"]),
            Connection(id: "off", type: .oidc, clientID: "c", issuer: "https://off", homeRealmDomains: ["off.example"], enabled: false),
        ])
        #expect(directory.connectionID(forEmail: " Bob@CORP.example ") == "corp")
        #expect(directory.connectionID(forEmail: "bob@off.example") == nil)
        #expect(directory.connectionID(forEmail: "bob@gmail.com") == nil)
        #expect(directory.connectionID(forEmail: "no-at-sign") == nil)
    }

    @Test func providerTransactionDescriptionHidesSecrets() {
        let transaction = ProviderTransaction(connectionID: "google", requestHandle: "sgq_handle", nonce: "the-nonce",
                                              codeVerifier: "the-verifier", browserBinding: "b", headless: false)
        #expect(!"\(transaction)".contains("the-nonce"))
        #expect(!"\(transaction)".contains("the-verifier"))
        #expect(ProviderTransaction.decode(transaction.encoded()) == transaction)
    }
}
