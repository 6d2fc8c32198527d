import Foundation
@testable import SignetCore
import SignetCrypto
import SignetStore
import SignetWire
import Testing

@Suite struct EndSessionEndpointTests {
    func idToken(_ f: CoreFixture, client: String, user: UserRecord) throws -> String {
        _ = try f.keyRing.ensureSigningKeys([.es256])
        let content = TokenIssuer.IDTokenContent(user: user, client: try f.client(client), scope: Scope(["openid"]), nonce: nil,
                                                 authTime: f.clock.now, amr: ["pwd"], sessionID: "sid-1", accessToken: nil)
        return try f.server.issuer.idToken(content)
    }

    /// Clients signing ID tokens with ES256 so no RSA key has to be generated.
    func fixture() throws -> CoreFixture {
        let f = try CoreFixture()
        var record = try #require(try f.storage.clients.client(id: "web"))
        record.idTokenAlgorithm = "ES256"
        try f.storage.clients.upsertClient(record)
        record = try #require(try f.storage.clients.client(id: "first"))
        record.idTokenAlgorithm = "ES256"
        try f.storage.clients.upsertClient(record)
        return f
    }

    @Test func aValidHintNamesTheClientAndExpiredHintsAreAccepted() throws {
        let f = try fixture()
        let user = try f.makeUser()
        let token = try idToken(f, client: "web", user: user)
        f.clock.advance(by: 86_400 * 2)   // long expired
        let checked = try EndSessionEndpoint(server: f.server).validate(RequestParameters([
            ("id_token_hint", token), ("post_logout_redirect_uri", "https://app.example.com/cb/out"), ("state", "xyz")]))
        #expect(checked.hint?.subject == user.id)
        #expect(checked.hint?.sessionID == "sid-1")
        #expect(checked.client?.id == "web")
        #expect(checked.postLogoutRedirectURI == "https://app.example.com/cb/out")
        #expect(checked.state == "xyz")
        #expect(f.server.subjectOfIDTokenHint(token, clientID: "web") == user.id)
        #expect(f.server.subjectOfIDTokenHint(token, clientID: "first") == nil)
    }

    @Test func badInputIsRefused() throws {
        let f = try fixture()
        let user = try f.makeUser()
        let token = try idToken(f, client: "web", user: user)
        let endpoint = EndSessionEndpoint(server: f.server)
        var tampered = Array(token.utf8)
        tampered[tampered.count - 3] = tampered[tampered.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let cases: [[(String, String)]] = [
            [("id_token_hint", String(decoding: tampered, as: UTF8.self))],
            [("id_token_hint", "not.a.jwt")],
            [("id_token_hint", token), ("client_id", "first")],                                      // aud mismatch
            [("id_token_hint", token), ("post_logout_redirect_uri", "https://app.example.com/cb/out/")],  // not exact
            [("id_token_hint", token), ("post_logout_redirect_uri", "https://evil.example/out")],
            [("post_logout_redirect_uri", "https://app.example.com/cb/out")],                         // no client
            [("client_id", "unknown"), ("post_logout_redirect_uri", "https://app.example.com/cb/out")],
            [("client_id", "web"), ("client_id", "web")],
        ]
        for parameters in cases {
            #expect(throws: OAuthError.self, "\(parameters.map(\.0))") { try endpoint.validate(RequestParameters(parameters)) }
        }
        let withoutHint = try endpoint.validate(RequestParameters([("client_id", "web"), ("post_logout_redirect_uri", "https://app.example.com/cb/out")]))
        #expect(withoutHint.hint == nil)
        #expect(withoutHint.postLogoutRedirectURI == "https://app.example.com/cb/out")
    }

    @Test func anAccessTokenIsNotAnIDTokenHint() throws {
        let f = try fixture()
        _ = try f.keyRing.ensureSigningKeys([.es256])
        let access = try f.server.issuer.accessToken(.init(subject: "u", clientID: "web", scope: Scope(["openid"]),
                                                           audience: ["web"], grantID: nil, authTime: nil, lifetime: nil))
        #expect(f.server.verifyIDTokenHint(access.token) == nil)
    }
}
