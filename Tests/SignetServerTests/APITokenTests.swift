import Foundation
import Testing
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetTesting

@Suite(.endToEndLimit) struct APITokenTests {
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

    /// A client that authenticates with another method than its registered one is told which one
    /// it is registered for; the status, code and Basic challenge stay those of RFC 6749 §5.2, and
    /// no secret is echoed. A wrong secret or an unknown client still gets the generic text.
    @Test func aWrongAuthenticationMethodNamesTheRegisteredOne() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let postSecret = try #require(try ClientRegistration(server: fixture.core).register(ClientSpec(
            id: "rs-post", isPublic: false, scope: "api.read", grantTypes: ["client_credentials"],
            authenticationMethod: "client_secret_post")).secret)
        let grant = ("grant_type", "client_credentials")
        let generic = "Client authentication failed."
        let basicText = "The client is registered for token_endpoint_auth_method client_secret_basic: send client_id and client_secret with HTTP Basic authentication."
        let postText = "The client is registered for token_endpoint_auth_method client_secret_post: send client_id and client_secret in the form body, not with HTTP Basic."
        let noneText = "The client is registered for token_endpoint_auth_method none: a public client sends client_id alone, without a secret."
        let cases: [(String, [(String, String)], HTTPHeaders, String, String?)] = [
            ("post for a basic client", [grant, ("client_id", "rs"), ("client_secret", fixture.rsSecret)], [:], basicText, fixture.rsSecret),
            ("no secret for a basic client", [grant, ("client_id", "rs")], [:], basicText, nil),
            ("basic for a post client", [grant], APIFixture.basic("rs-post", postSecret), postText, postSecret),
            ("no secret for a post client", [grant, ("client_id", "rs-post")], [:], postText, nil),
            ("secret for a public client", [grant, ("client_id", "app"), ("client_secret", "sgcs_guess-of-a-secret")], [:], noneText, "sgcs_guess-of-a-secret"),
            ("basic for a public client", [grant], APIFixture.basic("app", "sgcs_guess-of-a-secret"), noneText, "sgcs_guess-of-a-secret"),
            ("wrong secret, right method", [grant], APIFixture.basic("rs", "sgcs_wrong"), generic, "sgcs_wrong"),
            ("unknown client", [grant, ("client_id", "ghost"), ("client_secret", "sgcs_wrong")], [:], generic, "sgcs_wrong"),
        ]
        for (name, form, headers, description, secret) in cases {
            let response = try await fixture.post("/token", form, headers: headers)
            #expect(response.status == 401, "\(name): \(response)")
            let json = try response.json()
            #expect(json["error"]?.stringValue == "invalid_client", "\(name)")
            #expect(json["error_description"]?.stringValue == description, "\(name)")
            #expect(response.header("WWW-Authenticate") == #"Basic realm="signet", charset="UTF-8""#, "\(name)")
            #expect(response.header("Cache-Control") == "no-store", "\(name)")
            if let secret { #expect(!response.text.contains(secret), "\(name): the secret is echoed") }
        }
        // The right methods still work.
        #expect(try await fixture.post("/token", [grant], headers: fixture.rsAuthorization).status == 200)
        #expect(try await fixture.post("/token", [grant, ("client_id", "rs-post"), ("client_secret", postSecret)]).status == 200)
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

    /// A refresh token names its family (`sgr_` + 43 characters + the grant id its access tokens
    /// carry as `gid`). One whose suffix names another family, one cut short and one with no suffix
    /// at all are each `invalid_grant` over HTTP and change nothing: both families still rotate.
    @Test func aRefreshTokenWithATamperedFamilyIsInvalidGrantAndChangesNothing() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let first = try await fixture.tokens(), second = try await fixture.tokens()
        let mine = try #require(first["refresh_token"]?.stringValue), theirs = try #require(second["refresh_token"]?.stringValue)
        let access = try #require(first["access_token"]?.stringValue), otherAccess = try #require(second["access_token"]?.stringValue)
        let family = try #require(try NativeSignInFixture.claims(access)["gid"]?.stringValue)
        let other = try #require(try NativeSignInFixture.claims(otherAccess)["gid"]?.stringValue)
        #expect(mine.count == 4 + 43 + 22 && mine.hasPrefix("sgr_") && mine.hasSuffix(family) && family != other)
        let base = String(mine.prefix(4 + 43))
        for (name, tampered) in [("another family's id", base + other), ("cut short", String(mine.dropLast())), ("no family", base),
                                 ("this family on another token", String(theirs.prefix(4 + 43)) + family)] {
            let response = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", tampered), ("client_id", "app")])
            #expect(response.status == 400, "\(name)")
            #expect(response.header("Cache-Control") == "no-store", "\(name)")
            #expect(try response.json()["error"]?.stringValue == "invalid_grant", "\(name)")
        }
        let refreshTokens = fixture.core.storage.refreshTokens
        for (token, id) in [(mine, family), (theirs, other)] {
            #expect(try refreshTokens.refreshToken(hash: fixture.core.tokens.hash(token), grantID: id)?.rotatedAt == nil)
            #expect(try refreshTokens.isGrantActive(id: id, now: fixture.server.clock.now))
            let next = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "app")])
            #expect(next.status == 200)
            #expect(try next.json()["refresh_token"]?.stringValue?.hasSuffix(id) == true, "the successor names the same family")
        }
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

    /// A redeemed code replayed by nineteen racing requests: exactly one winner (the first, which
    /// got its answer before the replays were sent, so the outcome does not depend on timing),
    /// every replay is refused, and the replays revoke what the winner got (RFC 6749 §4.1.2).
    @Test func concurrentReplaysOfARedeemedCode() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let code = try fixture.issueCode()
        let winner = try await fixture.redeem(code)
        #expect(winner.status == 200, "\(winner)")
        let refresh = try #require(try winner.json()["refresh_token"]?.stringValue)
        let replays = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for _ in 0..<19 { group.addTask { try await fixture.redeem(code) } }
            var all: [TestResponse] = []
            for try await response in group { all.append(response) }
            return all
        }
        #expect(replays.count == 19)
        for replay in replays {
            #expect(replay.status == 400, "\(replay)")
            #expect(try replay.json()["error"]?.stringValue == "invalid_grant")
        }
        let again = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "app")])
        #expect(again.status == 400, "the replays revoked the family")
        #expect(try again.json()["error"]?.stringValue == "invalid_grant")
    }

    /// Twenty racing first redemptions of one code: the store lets exactly one consume it, and
    /// each of the other nineteen is a replay, audited as such — so exactly 19 `code_replay`
    /// events, whatever the timing. The consumer gets tokens unless a replay revoked the family
    /// before it was created (then it is refused too, by design: tokens of a replayed code are
    /// never handed out); a second 200 never happens, and whatever was issued is dead afterwards.
    @Test func concurrentFirstRedemptionsOfOneCodeHaveExactlyOneConsumer() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let code = try fixture.issueCode()
        let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for _ in 0..<20 { group.addTask { try await fixture.redeem(code) } }
            var all: [TestResponse] = []
            for try await response in group { all.append(response) }
            return all
        }
        let statuses = responses.map(\.status)
        let replays = try fixture.core.storage.audit.recentAudit(limit: 100).filter { $0.event == "code_replay" }
        #expect(replays.count == 19, "\(statuses)")
        let winners = responses.filter { $0.status == 200 }
        #expect(winners.count + responses.filter { $0.status == 400 }.count == 20, "\(statuses)")
        #expect(winners.count < 2, "\(statuses)")
        for refused in responses where refused.status == 400 {
            #expect(try refused.json()["error"]?.stringValue == "invalid_grant")
        }
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
