import Foundation
import SignetCore
@testable import SignetKit
import SignetServer
import SignetStore
import SignetTesting
import Testing

/// RP-initiated logout through the loopback listener against a real Signet: the end-session URL
/// carries id_token_hint, post_logout_redirect_uri and state; only the redirect with that state
/// is accepted.
@Suite("End session", .endToEndLimit) struct LogoutRequestTests {
    @Test func endSessionOpensTheEndpointAndChecksTheReturnedState() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        // The listener binds an ephemeral port first, so no other process can take it between a
        // pick and the bind.
        let listener = try LoopbackListener(path: "/logged-out")
        let postLogout = listener.redirectURI
        let now = fixture.server.clock.now
        try fixture.server.environment.storage.clients.upsertClient(ClientRecord(
            id: KitFixture.clientID, name: "Native", isPublic: true, firstParty: true,
            redirectURIs: [KitFixture.registeredRedirect], postLogoutRedirectURIs: [postLogout],
            allowedScopes: ["openid", "profile", "email", "offline_access"],
            grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        let client = try await fixture.client()
        let session = try await fixture.signIn(client)
        let signedOut = try #require(await session.signOut())
        let idToken = try #require(signedOut.idToken)

        let (urls, opened) = AsyncStream<URL>.makeStream()
        let ending = Task {
            try await client.endSession(idTokenHint: idToken, with: listener, timeout: 30) { url in
                opened.yield(url)
                opened.finish()
            }
        }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(url.absoluteString.hasPrefix(fixture.server.issuer + Routes.endSession + "?"))
        #expect(query.first { $0.name == "id_token_hint" }?.value == idToken)
        #expect(query.first { $0.name == "post_logout_redirect_uri" }?.value == postLogout)
        let state = try #require(query.first { $0.name == "state" }?.value)
        #expect(state.count >= 43)

        // A redirect with another state (or none) is refused, and the listener keeps waiting.
        let forged = try await HTTPTestClient().get(try #require(URL(string: postLogout + "?state=forged")))
        #expect(forged.status == 400)
        let stateless = try await HTTPTestClient().get(try #require(URL(string: postLogout)))
        #expect(stateless.status == 400)

        // The server's answer: a redirect to the listener with the state.
        let answer = try await HTTPTestClient().get(url)
        #expect(answer.status == 303)
        let location = try #require(answer.header("Location"))
        #expect(location == postLogout + "?state=" + state)
        let page = try await HTTPTestClient().get(try #require(URL(string: location)))
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>Signed out</h1>"))
        try await ending.value
    }

    @Test func theReturnedStateIsChecked() throws {
        let request = LogoutRequestTests.request(state: "expected-state")
        try request.validate(try #require(URL(string: "http://127.0.0.1:5000/out?state=expected-state")))
        #expect(throws: SignInError.missingState) { try request.validate(try #require(URL(string: "http://127.0.0.1:5000/out"))) }
        #expect(throws: SignInError.stateMismatch) {
            try request.validate(try #require(URL(string: "http://127.0.0.1:5000/out?state=expected-statf")))
        }
        #expect(throws: SignInError.malformedCallback) {
            try request.validate(try #require(URL(string: "http://127.0.0.1:5000/out?state=expected-state&state=x")))
        }
        #expect(throws: SignInError.self) { try request.validate(try #require(URL(string: "http://127.0.0.1:5001/out?state=expected-state"))) }
    }

    static func request(state: String) -> LogoutRequest {
        LogoutRequest(url: URL(fileURLWithPath: "/"), state: state, postLogoutRedirectURI: "http://127.0.0.1:5000/out")
    }
}
