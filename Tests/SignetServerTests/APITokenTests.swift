import Foundation
import Testing
import SignetHTTP
import SignetJOSE
import SignetTesting

@Suite struct APITokenTests {
    @Test func codeGrantHappyPath() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let response = try await fixture.redeem(try fixture.issueCode())
        #expect(response.status == 200)
        #expect(response.header("Cache-Control") == "no-store")
        let json = try response.json()
        #expect(json["token_type"]?.stringValue == "Bearer")
        #expect(json["refresh_token"]?.stringValue?.hasPrefix("sgr_") == true)
        #expect(json["id_token"]?.stringValue != nil)
    }

    /// Each bad input: exact status, error code, no-store, and the challenge for invalid_client.
    @Test func badInputs() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let verifier = APIFixture.pkce.verifier
        func codeRequest(_ code: String, _ extra: [(String, String)] = [], drop: String? = nil) -> [(String, String)] {
            let base = [("grant_type", "authorization_code"), ("code", code), ("client_id", "app"),
                        ("redirect_uri", APIFixture.redirect), ("code_verifier", verifier)]
            return base.filter { $0.0 != drop } + extra
        }
        let cases: [(String, [(String, String)], HTTPHeaders, Int, String)] = [
            ("pkce mismatch", codeRequest(try fixture.issueCode(), drop: "code_verifier") + [("code_verifier", String(repeating: "x", count: 43))], [:], 400, "invalid_grant"),
            ("missing verifier", codeRequest(try fixture.issueCode(), drop: "code_verifier"), [:], 400, "invalid_grant"),
            ("verifier without challenge", codeRequest(try fixture.issueCode(pkce: nil)), [:], 400, "invalid_grant"),
            ("redirect mismatch", codeRequest(try fixture.issueCode(), drop: "redirect_uri") + [("redirect_uri", "com.example.app:/callback/")], [:], 400, "invalid_grant"),
            ("code of another client", codeRequest(try fixture.issueCode(client: "rs")), [:], 400, "invalid_grant"),
            ("unknown code", codeRequest(fixture.core.tokens.make(.code)), [:], 400, "invalid_grant"),
            ("repeated code", codeRequest(try fixture.issueCode(), [("code", "sgc_x")]), [:], 400, "invalid_request"),
            ("missing grant_type", [("client_id", "app")], [:], 400, "invalid_request"),
            ("unsupported grant", [("grant_type", "password"), ("client_id", "app")], [:], 400, "unsupported_grant_type"),
            ("public client_credentials", [("grant_type", "client_credentials"), ("client_id", "app")], [:], 400, "unauthorized_client"),
            ("unknown client", codeRequest("sgc_x", drop: "client_id") + [("client_id", "ghost")], [:], 401, "invalid_client"),
            ("wrong secret", [("grant_type", "client_credentials")], APIFixture.basic("rs", "sgcs_wrong"), 401, "invalid_client"),
            ("confidential without secret", [("grant_type", "client_credentials"), ("client_id", "rs")], [:], 401, "invalid_client"),
        ]
        for (name, form, headers, status, error) in cases {
            let response = try await fixture.post("/token", form, headers: headers)
            #expect(response.status == status, "\(name): \(response)")
            #expect(try response.json()["error"]?.stringValue == error, "\(name)")
            #expect(response.header("Cache-Control") == "no-store", "\(name)")
            if status == 401 {
                #expect(response.header("WWW-Authenticate")?.hasPrefix("Basic") == true, "\(name)")
            }
        }
        // Not JSON, not form.
        let wrongType = try await fixture.send("POST", "/token", body: Array("{}".utf8), headers: [("Content-Type", "application/json")])
        #expect(wrongType.status == 400)
        #expect(try wrongType.json()["error"]?.stringValue == "invalid_request")
    }

    /// Client ids over 256 bytes are unknown clients before any lookup: `invalid_client` with
    /// the Basic challenge, as for any unknown client (RFC 6749 §5.2), and nothing is remembered
    /// (400 such ids of 100 KB grew the server by 39 MB). An id of up to 256 bytes is looked up.
    @Test func oversizeClientIDsAreUnknownClientsAndAreNotRemembered() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        for index in 0..<20 {
            let id = String(index) + String(repeating: "c", count: index == 0 ? 257 : 100_000)
            let response = try await fixture.post("/token", [("grant_type", "authorization_code"), ("code", "sgc_x"),
                                                             ("client_id", id), ("redirect_uri", APIFixture.redirect)])
            #expect(response.status == 401, "\(response)")
            #expect(try response.json()["error"]?.stringValue == "invalid_client")
            #expect(response.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            #expect(response.header("Cache-Control") == "no-store")
        }
        #expect(fixture.core.clients.rememberedMissingCount == 0)
        let ordinary = try await fixture.post("/token", [("grant_type", "client_credentials"), ("client_id", String(repeating: "d", count: 256))])
        #expect(ordinary.status == 401)
        #expect(fixture.core.clients.rememberedMissingCount == 1)
    }

    @Test func expiredAndReusedCodes() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let expiring = try fixture.issueCode()
        let code = try fixture.issueCode()
        let first = try await fixture.redeem(code)
        #expect(first.status == 200)
        let again = try await fixture.redeem(code)
        #expect(again.status == 400)
        #expect(try again.json()["error"]?.stringValue == "invalid_grant")
        // The replay revoked the family: the refresh token from the first redemption fails.
        let refresh = try #require(try first.json()["refresh_token"]?.stringValue)
        let refreshed = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "app")])
        #expect(refreshed.status == 400)
        fixture.server.clock.advance(by: 301)
        let expired = try await fixture.redeem(expiring)
        #expect(expired.status == 400)
        #expect(try expired.json()["error"]?.stringValue == "invalid_grant")
    }

    @Test func concurrentRefreshesNeverForkTheFamily() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let refresh = try #require(try await fixture.tokens()["refresh_token"]?.stringValue)
        let results = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<20 {
                group.addTask {
                    let response = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "app")])
                    return (response.status, response.status == 200
                        ? try response.json()["refresh_token"]?.stringValue : try response.json()["error"]?.stringValue)
                }
            }
            var all: [(Int, String?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let successors = Set(results.filter { $0.0 == 200 }.compactMap(\.1))
        #expect(successors.count == 1, "\(results)")
        #expect(results.allSatisfy { $0.0 == 200 || ($0.0 == 400 && $0.1 == "invalid_grant") }, "\(results)")
        // The one successor carries the family on.
        let next = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", try #require(successors.first)), ("client_id", "app")])
        #expect(next.status == 200)
    }

    /// Twenty racing redemptions of one code: the store lets exactly one consume it, and every
    /// other attempt is a replay, which revokes what was issued from the code (RFC 6749 §4.1.2).
    /// So at most one request gets tokens — none when a replay revokes the family before the
    /// winner created it — and whatever was issued is dead afterwards.
    @Test func concurrentRedemptionsOfOneCode() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let code = try fixture.issueCode()
        let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for _ in 0..<20 { group.addTask { try await fixture.redeem(code) } }
            var all: [TestResponse] = []
            for try await response in group { all.append(response) }
            return all
        }
        let winners = responses.filter { $0.status == 200 }
        #expect(winners.count <= 1, "\(responses.map(\.status))")
        #expect(responses.filter { $0.status == 400 }.count >= 19, "\(responses.map(\.status))")
        for winner in winners {
            let refresh = try #require(try winner.json()["refresh_token"]?.stringValue)
            let again = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "app")])
            #expect(again.status == 400, "the replays revoked the family")
        }
    }

    @Test func clientCredentials() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let response = try await fixture.post("/token", [("grant_type", "client_credentials")], headers: fixture.rsAuthorization)
        #expect(response.status == 200)
        let json = try response.json()
        #expect(json["scope"]?.stringValue == "api.read")
        #expect(json["refresh_token"] == nil)
    }
}
