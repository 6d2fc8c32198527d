import Foundation
import SignetClientCore
import SignetJOSE
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct TokenClientTests {
    /// Runs `/authorize` and returns the code from the redirect.
    func authorize(_ provider: MockProvider, pkce: PKCEPair, nonce: String) async throws -> String {
        let url = provider.url("/authorize?" + FormEncoding.encode([
            ("client_id", provider.clientID), ("redirect_uri", "com.example.app:/cb"), ("response_type", "code"),
            ("state", "st"), ("nonce", nonce), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256")]))
        let response = try await HTTPTestClient().get(url)
        #expect(response.status == 302)
        let query = try URLQuery(queryOf: try #require(response.location))
        #expect(query["state"] == "st")
        return try query.single("code")
    }

    @Test func exchangesACodeWithPKCEAndBasicAuthentication() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        let pkce = PKCEPair.generate()
        let code = try await authorize(provider, pkce: pkce, nonce: "n-42")
        let client = TokenClient(tokenEndpoint: provider.tokenURL, clientID: provider.clientID,
                                 authentication: .basic(secret: provider.clientSecret), http: OutboundHTTP())
        let tokens = try await client.exchangeCode(code, redirectURI: "com.example.app:/cb", codeVerifier: pkce.verifier)
        #expect(tokens.expiresIn == 3600)
        let idToken = try #require(tokens.idToken)
        let validator = IDTokenValidator(policy: IDTokenPolicy(issuer: provider.issuer, audiences: [provider.clientID], nonce: .equals("n-42")),
                                         keys: JWKSCache(jwksURI: provider.jwksURL, http: OutboundHTTP()))
        let validated = try await validator.validate(idToken, accessToken: tokens.accessToken)
        #expect(validated.subject == provider.user.subject)

        // The code is single use; the error body is parsed.
        await #expect(throws: TokenClientError.oauth(OAuthErrorBody(error: "invalid_grant"), status: 400)) {
            _ = try await client.exchangeCode(code, redirectURI: "com.example.app:/cb", codeVerifier: pkce.verifier)
        }
    }

    @Test func refusesAWrongVerifierOrSecret() async throws {
        let provider = try MockProvider(flavor: .google)
        defer { provider.stop() }
        let pkce = PKCEPair.generate()
        let code = try await authorize(provider, pkce: pkce, nonce: "n")
        let wrongSecret = TokenClient(tokenEndpoint: provider.tokenURL, clientID: provider.clientID,
                                      authentication: .post(secret: "nope"), http: OutboundHTTP())
        await #expect(throws: TokenClientError.oauth(OAuthErrorBody(error: "invalid_client"), status: 401)) {
            _ = try await wrongSecret.exchangeCode(code, redirectURI: "com.example.app:/cb", codeVerifier: pkce.verifier)
        }
        let client = TokenClient(tokenEndpoint: provider.tokenURL, clientID: provider.clientID,
                                 authentication: .post(secret: provider.clientSecret), http: OutboundHTTP())
        await #expect(throws: TokenClientError.oauth(OAuthErrorBody(error: "invalid_grant"), status: 400)) {
            _ = try await client.exchangeCode(code, redirectURI: "com.example.app:/cb", codeVerifier: PKCEPair.generate().verifier)
        }
    }

    @Test func basicCredentialsAreFormEncodedBeforeBase64() {
        // RFC 6749 §2.3.1: "a:b" / "p w+" are sent as base64("a%3Ab:p%20w%2B").
        #expect(ClientAuthentication.basicAuthorization(clientID: "a:b", secret: "p w+")
            == "Basic " + Data("a%3Ab:p%20w%2B".utf8).base64EncodedString())
    }

    @Test func anErrorBodyKeepsItsDescriptionAndURI() throws {
        let object = try #require(try JSONValue.parse(Array(#"{"error":"invalid_grant","error_description":"used","error_uri":"https://id.example.com/e"}"#.utf8)).objectValue)
        #expect(OAuthErrorBody(json: object) == OAuthErrorBody(error: "invalid_grant", errorDescription: "used", errorURI: "https://id.example.com/e"))
        let noError = try #require(try JSONValue.parse(Array(#"{"error_description":"x"}"#.utf8)).objectValue)
        #expect(OAuthErrorBody(json: noError) == nil)
    }

    @Test func githubTokensWithoutExpiry() async throws {
        let provider = try MockProvider(flavor: .github)
        defer { provider.stop() }
        let url = provider.url("/login/oauth/authorize?" + FormEncoding.encode([
            ("client_id", provider.clientID), ("redirect_uri", "http://127.0.0.1:9/cb"), ("state", "s")]))
        let code = try URLQuery(queryOf: try #require(try await HTTPTestClient().get(url).location)).single("code")
        let client = TokenClient(tokenEndpoint: provider.tokenURL, clientID: provider.clientID,
                                 authentication: .post(secret: provider.clientSecret), http: OutboundHTTP())
        let tokens = try await client.exchangeCode(code, redirectURI: "http://127.0.0.1:9/cb", codeVerifier: nil)
        #expect(tokens.idToken == nil)
        #expect(tokens.expiresIn == 0)
        let user = try await OutboundHTTP().get(provider.url("/user"), headers: ["Authorization": "Bearer \(tokens.accessToken)"])
        #expect(try JSONValue.parse(user.body)["id"] == .int(4242))
        let emails = try await OutboundHTTP().get(provider.url("/user/emails"), headers: ["Authorization": "Bearer \(tokens.accessToken)"])
        #expect(try JSONValue.parse(emails.body).arrayValue?.first?["verified"] == .bool(true))
    }

    @Test func appleAnswersWithAFormPostPage() async throws {
        let provider = try MockProvider(flavor: .apple)
        defer { provider.stop() }
        let url = provider.url("/authorize?" + FormEncoding.encode([
            ("client_id", provider.clientID), ("redirect_uri", "https://rp.example/cb"), ("state", "s"),
            ("response_mode", "form_post"), ("nonce", RandomToken.sha256Hex("raw"))]))
        let page = try await HTTPTestClient().get(url)
        #expect(page.status == 200)
        let form = try #require(HTMLForm.forms(in: page.text, pageURL: url).first)
        #expect(form.action.absoluteString == "https://rp.example/cb")
        #expect(provider.lastAuthorizationNonce == RandomToken.sha256Hex("raw"))
    }

    @Test func pkceAndAppleNonceHelpers() {
        // RFC 7636 Appendix B.
        #expect(PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(RandomToken.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(RandomToken.make().utf8.count == 43)
    }
}
