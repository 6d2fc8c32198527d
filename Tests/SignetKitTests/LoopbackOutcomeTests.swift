import Foundation
import SignetClientCore
import SignetCore
import SignetKit
import SignetServer
import SignetTesting
import Testing

/// The loopback listener's page tells the browser the real outcome of `signIn(with:)`: "Signed
/// in" only after the exchange, a denial or a failure otherwise, in Signet's look, no script.
@Suite("Loopback outcome pages", .endToEndLimit) struct LoopbackOutcomeTests {
    /// Starts `signIn(with:)`, delivers the callback `query(state)` builds, returns the page and
    /// the sign-in's error.
    func deliver(_ fixture: KitFixture, query: @escaping (String) -> [URLQueryItem]) async throws -> (TestResponse, SignInError?) {
        let client = try await fixture.client()
        let listener = try LoopbackListener()
        let (urls, opened) = AsyncStream<URL>.makeStream()
        let signIn = Task { () -> SignInError? in
            do throws(SignInError) {
                _ = try await client.signIn(with: listener, timeout: 30) { url in
                    opened.yield(url)
                    opened.finish()
                }
                return nil
            } catch {
                return error
            }
        }
        var iterator = urls.makeAsyncIterator()
        let authorizationURL = try #require(await iterator.next())
        let state = try #require(URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "state" }?.value)
        var callback = try #require(URLComponents(string: listener.redirectURI))
        callback.queryItems = query(state) + [URLQueryItem(name: "iss", value: fixture.server.issuer)]
        let page = try await HTTPTestClient().get(try #require(callback.url))
        return (page, await signIn.value)
    }

    func expectSignetLook(_ page: TestResponse) {
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.header("Content-Security-Policy") == "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        #expect(page.header("X-Frame-Options") == "DENY")
        #expect(page.text.contains("background:#f4f5f7"), "the CSS of Signet's pages")
        #expect(page.text.contains("<main>"))
        #expect(!page.text.lowercased().contains("<script"))
    }

    @Test func aDenialIsShownAsADenial() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (page, error) = try await deliver(fixture) { state in
            [URLQueryItem(name: "error", value: "access_denied"), URLQueryItem(name: "state", value: state)]
        }
        #expect(page.status == 403)
        #expect(page.text.contains("<h1>Sign-in cancelled</h1>"))
        #expect(page.text.contains("(access_denied)"))
        #expect(!page.text.contains("Signed in"))
        expectSignetLook(page)
        #expect(error == .authorizationError(code: "access_denied", description: nil))
        #expect(fixture.tokenRequests == 0)
    }

    @Test func aFailedExchangeIsShownAsAFailure() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let (page, error) = try await deliver(fixture) { state in
            [URLQueryItem(name: "code", value: "not-a-real-code"), URLQueryItem(name: "state", value: state)]
        }
        #expect(page.status == 500)
        #expect(page.text.contains("<h1>Sign-in failed</h1>"))
        #expect(page.text.contains("invalid_grant"))
        #expect(!page.text.contains("not-a-real-code"), "the code is not echoed")
        #expect(!page.text.contains("Signed in"))
        expectSignetLook(page)
        guard let error, error.code == .tokenError else { Issue.record("got \(String(describing: error))"); return }
        #expect(error.oauthError == "invalid_grant")
        #expect(fixture.tokenRequests == 1, "the page waited for the exchange")
    }

    @Test func successIsShownAfterTheExchange() async throws {
        let fixture = try KitFixture()
        defer { fixture.stop() }
        let session = try await fixture.signIn(try await fixture.client())   // checks the "Signed in" page
        #expect(await session.isSignedIn)
        #expect(fixture.tokenRequests == 1)
    }
}
