import Foundation
import SignetKit
import SignetTesting
import Testing

@Suite("Loopback listener", .endToEndLimit) struct LoopbackListenerTests {
    @Test func acceptsExactlyOneValidCallbackAndRefusesOthers() async throws {
        let listener = try LoopbackListener()
        #expect(listener.port > 0)
        #expect(listener.redirectURI == "http://127.0.0.1:\(listener.port)/callback")
        async let received = listener.waitForCallback(timeout: 30) { url in url.query?.contains("state=good") == true }
        let http = HTTPTestClient()
        let base = listener.redirectURI
        let wrongPath = try await http.get(try #require(URL(string: "http://127.0.0.1:\(listener.port)/favicon.ico")))
        #expect(wrongPath.status == 404)
        let wrongState = try await http.get(try #require(URL(string: base + "?code=x&state=bad")))
        #expect(wrongState.status == 400)
        #expect(wrongState.header("Cache-Control") == "no-store")
        let good = try await http.get(try #require(URL(string: base + "?code=x&state=good")))
        #expect(good.status == 200)
        // waitForCallback knows no outcome: it never claims a sign-in.
        #expect(good.text.contains("Response received"))
        #expect(!good.text.contains("Signed in"))
        let url = try await received
        #expect(url.absoluteString == base + "?code=x&state=good")
        // The listener is closed: a second callback finds nobody.
        await #expect(throws: (any Error).self) { try await http.get(try #require(URL(string: base + "?code=y&state=good"))) }
    }

    @Test func timesOut() async throws {
        let listener = try LoopbackListener()
        await #expect(throws: SignInError.timedOut) { try await listener.waitForCallback(timeout: 0.3) { _ in true } }
    }

    @Test func cancellationStopsWaiting() async throws {
        let listener = try LoopbackListener(path: "/cb")
        let task = Task { try await listener.waitForCallback(timeout: 30) { _ in true } }
        task.cancel()
        await #expect(throws: SignInError.cancelled) { try await task.value }
    }

    @Test func refusesAPathWithAQuery() {
        #expect(throws: SignInError.self) { try LoopbackListener(path: "/cb?x=1") }
    }
}
