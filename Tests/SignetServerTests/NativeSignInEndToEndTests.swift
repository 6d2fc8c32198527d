import Foundation
import SignetClientCore
import SignetCore
import SignetJOSE
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// Native ID-token sign-in (issue 5) end to end: mock Google/Apple providers minting real ID
/// tokens, Signet over real HTTP on loopback with SQLite.
@Suite(.endToEndLimit) struct NativeSignInEndToEndTests {
    @Test func googleNewUserIsProvisionedAndReturningUserKeepsTheSubject() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let before = try fixture.userCount()

        let nonceResponse = try await fixture.post("/native/nonce", [("client_id", "native-app")])
        #expect(nonceResponse.status == 200)
        #expect(nonceResponse.json["expires_in"] == .int(300))
        #expect(nonceResponse.headers["cache-control"] == "no-store")
        let nonce = try #require(nonceResponse.json["nonce"]?.stringValue)
        #expect(nonce.hasPrefix("sgn_"))

        let first = try await fixture.exchange(try fixture.google.mintIDToken(nonce: nonce))
        #expect(first.status == 200, "\(first.json)")
        #expect(first.json["issued_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(first.json["token_type"] == "Bearer")
        #expect(first.headers["cache-control"] == "no-store")
        let refresh = try #require(first.json["refresh_token"]?.stringValue)
        let idClaims = try NativeSignInFixture.claims(try #require(first.json["id_token"]?.stringValue))
        let subject = try #require(idClaims["sub"]?.stringValue)
        #expect(idClaims["amr"] == ["fed"])
        #expect(idClaims["aud"] == "native-app")
        #expect(try fixture.userCount() == before + 1)
        let user = try #require(try fixture.core.storage.users.user(id: subject))
        #expect(user.email == "alice@example.com")
        #expect(user.emailVerified)
        #expect(user.passwordHash == nil)
        let link = try fixture.core.storage.users.federatedIdentity(connectionID: "google", issuer: fixture.google.issuer,
                                                                    subject: fixture.google.user.subject)
        #expect(link?.userID == subject)

        // Returning user: a new nonce, the same provider subject → the same Signet subject.
        let second = try await fixture.exchange(try fixture.google.mintIDToken(nonce: try await fixture.nonce()))
        #expect(second.status == 200)
        let again = try NativeSignInFixture.claims(try #require(second.json["id_token"]?.stringValue))
        #expect(again["sub"]?.stringValue == subject)
        #expect(try fixture.userCount() == before + 1)

        // The refresh token works like any other.
        let refreshed = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh),
                                                          ("client_id", "native-app")])
        #expect(refreshed.status == 200)
    }

    @Test func appleTokenCarriesTheHashOfTheRawNonce() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let raw = try await fixture.nonce()
        let token = try fixture.apple.mintIDToken(nonce: RandomToken.sha256Hex(raw))
        let before = try fixture.userCount()

        // The raw nonce is required beside an Apple token.
        let missing = try await fixture.exchange(token, connection: "apple")
        #expect(missing.status == 400)
        #expect(missing.json["error"] == "invalid_request")
        // A raw nonce that is not the preimage of the token's nonce.
        let wrong = try await fixture.exchange(token, connection: "apple", nonce: try await fixture.nonce())
        #expect(wrong.json["error"] == "invalid_grant")
        #expect(try fixture.userCount() == before)

        let ok = try await fixture.exchange(token, connection: "apple", nonce: raw)
        #expect(ok.status == 200, "\(ok.json)")
        let claims = try NativeSignInFixture.claims(try #require(ok.json["id_token"]?.stringValue))
        let appleSubject = try #require(claims["sub"]?.stringValue)
        let user = try #require(try fixture.core.storage.users.user(id: appleSubject))
        #expect(user.emailVerified)   // Apple's "true" string
        // Replaying the same Apple token and raw nonce fails: the nonce is consumed.
        let replay = try await fixture.exchange(token, connection: "apple", nonce: raw)
        #expect(replay.json["error"] == "invalid_grant")

        // An Apple token carrying the raw nonce itself (not its hash) is refused.
        let rawNonce = try await fixture.nonce()
        let unhashed = try await fixture.exchange(try fixture.apple.mintIDToken(nonce: rawNonce), connection: "apple", nonce: rawNonce)
        #expect(unhashed.json["error"] == "invalid_grant")
    }

    /// Each bad token is refused with invalid_grant, creates nothing, and leaves the nonce
    /// pending (proved by a valid token then succeeding with it).
    @Test func badTokensAreRefusedAndLeaveTheNoncePending() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let google = fixture.google
        let cases: [(String, @Sendable (String) throws -> String)] = [
            ("other audience", { try google.mintIDToken(nonce: $0, audience: "someone-elses-app") }),
            ("other issuer", { try google.mintIDToken(nonce: $0) { $0.iss = "https://accounts.evil.example" } }),
            ("expired token", { nonce in try google.mintIDToken(nonce: nonce) { $0.exp = google.issuedAt(-7200 + 3600) } }),
            ("bad signature", { try google.mintIDToken(nonce: $0, signing: .badSignature) }),
            ("forged with a published kid", { try google.mintIDToken(nonce: $0, signing: .forgedWithPublishedKeyID) }),
            ("unknown kid", { try google.mintIDToken(nonce: $0, signing: .unknownKeyID) }),
            ("alg none", { try google.mintIDToken(nonce: $0, signing: .algorithmNone) }),
            ("alg HS256", { try google.mintIDToken(nonce: $0, signing: .hs256) }),
            ("no nonce claim", { _ in try google.mintIDToken(nonce: nil) }),
            ("malformed", { _ in "eyJhbGciOiJSUzI1NiJ9.not-json.sig" }),
            ("not a JWT", { _ in "garbage" }),
        ]
        var pending: [String] = []
        for (name, mint) in cases {
            let nonce = try await fixture.nonce()
            let before = try fixture.userCount()
            let response = try await fixture.exchange(try mint(nonce))
            #expect(response.status == 400, "\(name)")
            #expect(response.json["error"] == "invalid_grant", "\(name): \(response.json)")
            #expect(try fixture.userCount() == before, "\(name)")
            pending.append(nonce)
        }
        for nonce in pending {
            let response = try await fixture.exchange(try google.mintIDToken(nonce: nonce))
            #expect(response.status == 200, "the nonce should still be pending: \(response.json)")
        }
    }

    @Test func nonceProblemsAreRefused() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let google = fixture.google
        let before = try fixture.userCount()

        // Never issued (right shape, and wrong shape).
        for nonce in ["sgn_" + RandomToken.make(), "n-0S6_WzA2Mj"] {
            let response = try await fixture.exchange(try google.mintIDToken(nonce: nonce))
            #expect(response.json["error"] == "invalid_grant")
        }
        // Issued to another client.
        let foreign = try await fixture.nonce(client: "other-native-app")
        #expect(try await fixture.exchange(try google.mintIDToken(nonce: foreign)).json["error"] == "invalid_grant")
        // A `nonce` parameter that differs from the token's nonce (Google form).
        let mine = try await fixture.nonce()
        let mismatch = try await fixture.exchange(try google.mintIDToken(nonce: mine), nonce: try await fixture.nonce())
        #expect(mismatch.json["error"] == "invalid_grant")
        // Expired: past the 300 s lifetime (the token itself is fresh).
        let old = try await fixture.nonce()
        fixture.server.clock.advance(by: 301)
        #expect(try await fixture.exchange(try google.mintIDToken(nonce: old)).json["error"] == "invalid_grant")
        #expect(try fixture.userCount() == before)

        // Consumed: the same token a second time.
        let fresh = try await fixture.nonce()
        let token = try google.mintIDToken(nonce: fresh)
        #expect(try await fixture.exchange(token).status == 200)
        let replay = try await fixture.exchange(token)
        #expect(replay.status == 400)
        #expect(replay.json["error"] == "invalid_grant")
        #expect(try fixture.userCount() == before + 1)
    }

    @Test func requestAndClientProblems() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let before = try fixture.userCount()
        let nonce = try await fixture.nonce()
        let token = try fixture.google.mintIDToken(nonce: nonce)

        func error(_ response: (status: Int, json: [String: JSONValue], headers: [String: String])) -> String? {
            response.json["error"]?.stringValue
        }
        #expect(error(try await fixture.exchange(token, connection: nil)) == "invalid_request")
        #expect(error(try await fixture.exchange(token, tokenType: nil)) == "invalid_request")
        #expect(error(try await fixture.exchange(token, tokenType: "urn:ietf:params:oauth:token-type:access_token")) == "invalid_request")
        #expect(error(try await fixture.exchange("", connection: "google")) == "invalid_request")
        #expect(error(try await fixture.exchange(token, extra: [("connection", "apple")])) == "invalid_request")   // repeated
        #expect(error(try await fixture.exchange(token, connection: "nope")) == "invalid_grant")
        #expect(error(try await fixture.exchange(token, connection: "google-browser-only")) == "invalid_grant")
        #expect(error(try await fixture.exchange(token, connection: "google-disabled")) == "invalid_grant")
        #expect(error(try await fixture.exchange(token, scope: "openid admin")) == "invalid_scope")
        // A client not registered for the grant, and an unknown client.
        #expect(error(try await fixture.exchange(token, client: "third-party")) == "unauthorized_client")
        let unknown = try await fixture.exchange(token, client: "nobody")
        #expect(unknown.status == 401)   // invalid_client (URLSession on Linux drops the body of a challenged 401)
        #expect(unknown.headers["www-authenticate"]?.hasPrefix("Basic") == true)
        #expect(try fixture.userCount() == before)
        // After all that, the nonce is still pending.
        #expect(try await fixture.exchange(token).status == 200)
    }

    @Test func nonceEndpointRefusesOtherClientsAndRateLimits() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let third = try await fixture.post("/native/nonce", [("client_id", "third-party")])
        #expect(third.status == 400)
        #expect(third.json["error"] == "unauthorized_client")
        let unknown = try await fixture.post("/native/nonce", [("client_id", "nobody")])
        #expect(unknown.status == 401)   // invalid_client
        let missing = try await fixture.post("/native/nonce", [])
        #expect(missing.json["error"] == "invalid_request")
        for index in 0..<100 {
            #expect(try await fixture.post("/native/nonce", [("client_id", "nobody-\(index)")]).status == 401)
        }
        // A client id over 256 bytes is an unknown client, refused before any lookup.
        let oversize = try await fixture.post("/native/nonce", [("client_id", String(repeating: "n", count: 100_000))])
        #expect(oversize.status == 401)   // invalid_client
        #expect(oversize.headers["www-authenticate"]?.hasPrefix("Basic") == true)
        // 60 per minute per address, counting only requests that name a native-sign-in client:
        // the 104 refused above (unknown, oversize and unfit client_ids, none) used up nothing, so
        // 60 pass and the next is refused.
        for _ in 0..<60 { _ = try await fixture.nonce() }
        let limited = try await fixture.post("/native/nonce", [("client_id", "native-app")])
        #expect(limited.status == 429)
        #expect(limited.headers["retry-after"] == "60")
        fixture.server.clock.advance(by: 61)
        #expect(try await fixture.post("/native/nonce", [("client_id", "native-app")]).status == 200)
    }

    @Test func fiftyRacingExchangesOfOneTokenYieldExactlyOneSession() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let before = try fixture.userCount()
        let token = try fixture.google.mintIDToken(nonce: try await fixture.nonce())
        _ = try await fixture.exchange(try fixture.google.mintIDToken(nonce: "warm-the-jwks-cache"))
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let response = try await fixture.exchange(token)
                    return (response.status, response.json["error"]?.stringValue)
                }
            }
            var results: [(Int, String?)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(statuses.filter { $0.0 == 200 }.count == 1)
        #expect(statuses.filter { $0.0 == 400 && $0.1 == "invalid_grant" }.count == 49)
        #expect(try fixture.userCount() == before + 1)
    }

    @Test func verifiedEmailLinksToAnExistingAccountWhenTheConnectionAllowsIt() async throws {
        let fixture = try NativeSignInFixture(allowLinking: true)
        defer { fixture.stop() }
        let now = fixture.server.clock.now
        try fixture.core.storage.users.insertUser(UserRecord(id: "existing-user", email: "alice@example.com", emailVerified: true,
                                                             createdAt: now, updatedAt: now))
        let before = try fixture.userCount()
        // Unverified at the provider: never linked.
        fixture.google.user.emailVerified = false
        let refused = try await fixture.exchange(try fixture.google.mintIDToken(nonce: try await fixture.nonce()))
        #expect(refused.json["error"] == "invalid_grant")
        // Verified: linked to the existing account.
        fixture.google.user.emailVerified = true
        let linked = try await fixture.exchange(try fixture.google.mintIDToken(nonce: try await fixture.nonce()))
        #expect(linked.status == 200)
        let claims = try NativeSignInFixture.claims(try #require(linked.json["id_token"]?.stringValue))
        #expect(claims["sub"] == "existing-user")
        #expect(try fixture.userCount() == before)
    }

    @Test func discoveryAdvertisesTheFlow() async throws {
        let fixture = try NativeSignInFixture()
        defer { fixture.stop() }
        let metadata = try await fixture.http.get(fixture.server.url("/.well-known/openid-configuration"))
        let object = try #require(try JSONValue.parse(metadata.body).objectValue)
        #expect(object["native_nonce_endpoint"]?.stringValue == fixture.server.issuer + "/native/nonce")
        #expect(object["grant_types_supported"]?.arrayValue?.contains("urn:ietf:params:oauth:grant-type:token-exchange") == true)
    }
}
