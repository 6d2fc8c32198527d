import Foundation
import Testing
import SignetHTTP
import SignetJOSE
import SignetTesting

@Suite(.endToEndLimit) struct APIUserInfoTests {
    @Test func getAndPost() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let access = try #require(try await fixture.tokens()["access_token"]?.stringValue)
        let get = try await fixture.get("/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(get.status == 200)
        #expect(get.header("Cache-Control") == "no-store")
        let claims = try get.json()
        #expect(claims["sub"]?.stringValue == fixture.userID)
        #expect(claims["email"]?.stringValue == "ada@example.com")
        let post = try await fixture.post("/userinfo", [("access_token", access)])
        #expect(post.status == 200)
        #expect(try post.json()["sub"]?.stringValue == fixture.userID)
    }

    @Test func errors() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let access = try #require(try await fixture.tokens()["access_token"]?.stringValue)
        // No token: a bare challenge, no error code (RFC 6750 §3.1).
        let none = try await fixture.get("/userinfo")
        #expect(none.status == 401)
        #expect(none.header("WWW-Authenticate") == #"Bearer realm="signet""#)
        // A bad token.
        let bad = try await fixture.get("/userinfo", headers: ["Authorization": "Bearer eyJ.bad.token"])
        #expect(bad.status == 401)
        #expect(bad.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        #expect(try bad.json()["error"]?.stringValue == "invalid_token")
        // Never from the query.
        let query = try await fixture.get("/userinfo?access_token=\(access)")
        #expect(query.status == 400)
        #expect(query.header("WWW-Authenticate")?.contains(#"error="invalid_request""#) == true)
        // Two methods at once.
        let both = try await fixture.post("/userinfo", [("access_token", access)], headers: ["Authorization": "Bearer \(access)"])
        #expect(both.status == 400)
        // A client-credentials token has no user.
        let service = try await fixture.post("/token", [("grant_type", "client_credentials")], headers: fixture.rsAuthorization)
        let serviceToken = try #require(try service.json()["access_token"]?.stringValue)
        let noUser = try await fixture.get("/userinfo", headers: ["Authorization": "Bearer \(serviceToken)"])
        #expect(noUser.status == 401)
        // Without openid: insufficient_scope.
        let profileOnly = try #require(try await fixture.tokens(scope: "profile")["access_token"]?.stringValue)
        let insufficient = try await fixture.get("/userinfo", headers: ["Authorization": "Bearer \(profileOnly)"])
        #expect(insufficient.status == 403)
        #expect(insufficient.header("WWW-Authenticate")?.contains(#"error="insufficient_scope""#) == true)
        // Expired.
        fixture.server.clock.advance(by: 900 + 31)
        let expired = try await fixture.get("/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(expired.status == 401)
    }
}

@Suite(.endToEndLimit) struct APIRevocationTests {
    @Test func revokingTheRefreshTokenEndsTheFamily() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let tokens = try await fixture.tokens()
        let refresh = try #require(tokens["refresh_token"]?.stringValue)
        let access = try #require(tokens["access_token"]?.stringValue)
        // Another client's attempt changes nothing and still gets 200.
        let foreign = try await fixture.post("/revoke", [("token", refresh)], headers: fixture.rsAuthorization)
        #expect(foreign.status == 200 && foreign.body.isEmpty)
        #expect(try await fixture.get("/userinfo", headers: ["Authorization": "Bearer \(access)"]).status == 200)
        let revoked = try await fixture.post("/revoke", [("token", refresh), ("token_type_hint", "refresh_token"), ("client_id", "app")])
        #expect(revoked.status == 200)
        #expect(revoked.body.isEmpty)
        #expect(revoked.header("Cache-Control") == "no-store")
        #expect(try await fixture.get("/userinfo", headers: ["Authorization": "Bearer \(access)"]).status == 401)
        let refreshed = try await fixture.post("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", "app")])
        #expect(refreshed.status == 400)
    }

    @Test func revokingTheAccessTokenEndsTheFamily() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let tokens = try await fixture.tokens()
        let access = try #require(tokens["access_token"]?.stringValue)
        let revoked = try await fixture.post("/revoke", [("token", access), ("client_id", "app")])
        #expect(revoked.status == 200)
        let refreshed = try await fixture.post("/token", [("grant_type", "refresh_token"),
                                                          ("refresh_token", try #require(tokens["refresh_token"]?.stringValue)), ("client_id", "app")])
        #expect(try refreshed.json()["error"]?.stringValue == "invalid_grant")
    }

    @Test func badRequests() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let unknown = try await fixture.post("/revoke", [("token", "whatever"), ("client_id", "app")])
        #expect(unknown.status == 200)
        let missing = try await fixture.post("/revoke", [("client_id", "app")])
        #expect(missing.status == 400)
        #expect(try missing.json()["error"]?.stringValue == "invalid_request")
        let badClient = try await fixture.post("/revoke", [("token", "x")], headers: APIFixture.basic("rs", "sgcs_wrong"))
        #expect(badClient.status == 401)
        #expect(try badClient.json()["error"]?.stringValue == "invalid_client")
        #expect(badClient.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
        #expect(badClient.header("Cache-Control") == "no-store")
    }
}

@Suite(.endToEndLimit) struct APIIntrospectionTests {
    @Test func activeAndInactive() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let tokens = try await fixture.tokens()
        let access = try #require(tokens["access_token"]?.stringValue)
        let active = try await fixture.post("/introspect", [("token", access)], headers: fixture.rsAuthorization)
        #expect(active.status == 200)
        #expect(active.header("Cache-Control") == "no-store")
        let json = try active.json()
        #expect(json["active"] == .bool(true))
        #expect(json["client_id"]?.stringValue == "app")
        #expect(json["sub"]?.stringValue == fixture.userID)
        #expect(json["token_type"]?.stringValue == "Bearer")
        #expect(json["iss"]?.stringValue == fixture.server.issuer)
        // A refresh token of another client, garbage, and a revoked token: {"active": false} only.
        for token in [try #require(tokens["refresh_token"]?.stringValue), "garbage"] {
            let inactive = try await fixture.post("/introspect", [("token", token)], headers: fixture.rsAuthorization)
            #expect(inactive.status == 200)
            #expect(inactive.text == #"{"active":false}"#)
        }
        _ = try await fixture.post("/revoke", [("token", access), ("client_id", "app")])
        let revoked = try await fixture.post("/introspect", [("token", access)], headers: fixture.rsAuthorization)
        #expect(revoked.text == #"{"active":false}"#)
    }

    @Test func needsAConfidentialClient() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let publicCaller = try await fixture.post("/introspect", [("token", "x"), ("client_id", "app")])
        #expect(publicCaller.status == 401)
        #expect(try publicCaller.json()["error"]?.stringValue == "invalid_client")
        let nobody = try await fixture.post("/introspect", [("token", "x")])
        #expect(nobody.status == 401)
        let missing = try await fixture.post("/introspect", [], headers: fixture.rsAuthorization)
        #expect(missing.status == 400)
    }
}

@Suite(.endToEndLimit) struct APIDiscoveryTests {
    @Test func advertisedEndpointsAnswer() async throws {
        let fixture = try APIFixture()
        defer { fixture.stop() }
        let response = try await fixture.get("/.well-known/openid-configuration")
        #expect(response.status == 200)
        let metadata = try response.json()
        let issuer = fixture.server.issuer
        #expect(metadata["issuer"]?.stringValue == issuer)
        #expect(metadata["authorization_response_iss_parameter_supported"] == .bool(true))
        #expect(metadata["code_challenge_methods_supported"] == .array(["S256"]))
        #expect(metadata["response_types_supported"] == .array(["code"]))
        #expect(metadata["request_parameter_supported"] == .bool(false))
        #expect(metadata["frontchannel_logout_supported"] == nil && metadata["backchannel_logout_supported"] == nil)
        // Every endpoint this change serves answers at the advertised URL (not 404). The
        // authorization and end-session endpoints belong to the sign-in change.
        let expected: [(String, String, Int)] = [
            ("jwks_uri", "GET", 200), ("token_endpoint", "POST", 400), ("userinfo_endpoint", "GET", 401),
            ("revocation_endpoint", "POST", 401), ("introspection_endpoint", "POST", 401),
        ]
        for (key, method, status) in expected {
            let url = try #require(metadata[key]?.stringValue, "\(key)")
            #expect(url.hasPrefix(issuer + "/"), "\(key)")
            let path = String(url.dropFirst(issuer.count))
            let answer = method == "GET" ? try await fixture.get(path) : try await fixture.post(path, [])
            #expect(answer.status == status, "\(key): \(answer.status)")
        }
        for key in ["authorization_endpoint", "end_session_endpoint"] {
            #expect(metadata[key]?.stringValue?.hasPrefix(issuer + "/") == true, "\(key)")
        }
    }
}
