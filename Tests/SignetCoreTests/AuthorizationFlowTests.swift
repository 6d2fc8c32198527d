import Foundation
import SignetCore
import SignetStore
import SignetWire
import Testing

@Suite struct AuthorizationFlowTests {
    @Test func withoutSessionTheUserSignsInAndThePendingRequestIsStored() throws {
        let f = try CoreFixture()
        let request = try f.request("first")
        let step = try f.flow.start(request, client: try f.client("first"), sessionToken: nil)
        #expect(step.isSignIn)
        let handle = try #require(step.handle)
        #expect(handle.hasPrefix("sgq_"))
        let pending = try f.flow.pending(handle: handle)
        #expect(pending.request == request)
        #expect(pending.client.id == "first")
    }

    @Test func aValidSessionGetsACodeWithEveryField() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        let browser = try f.signedIn(user)
        f.clock.advance(by: 60)
        let request = try f.request("first", scope: "openid email offline_access")
        let step = try f.flow.start(request, client: try f.client("first"), sessionToken: browser.token)
        guard case .code(let code, let redirectURI, let state) = step else { Issue.record("expected a code, got \(step)"); return }
        #expect(code.hasPrefix("sgc_"))
        #expect(redirectURI == "com.example.first:/cb")
        #expect(state == "s-1")
        let record = try f.codeRecord(code)
        #expect(record.clientID == "first")
        #expect(record.userID == user.id)
        #expect(record.redirectURI == request.redirectURI)
        #expect(record.scope == "openid email offline_access")
        #expect(record.codeChallenge == request.codeChallenge)
        #expect(record.nonce == "n-1")
        #expect(record.resources == ["https://api.example.com"])
        #expect(record.authTime == browser.session.record.authTime)
        #expect(record.sessionID == browser.session.publicID)
        #expect(!record.grantID.isEmpty)
        #expect(record.amr == ["pwd"])
        #expect(record.expiresAt == f.clock.now.addingTimeInterval(300))
    }

    @Test func usingTheSessionExtendsItsIdleTimeout() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let before = browser.session.record.idleExpiresAt
        f.clock.advance(by: 3600)
        _ = try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: browser.token)
        let after = try #require(try f.flow.sessions.active(token: browser.token))
        #expect(after.record.idleExpiresAt == before.addingTimeInterval(3600))
    }

    @Test func aSessionUsedAgainWithinTheTouchIntervalIsNotWritten() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let interval = TimeInterval(SessionManager.touchInterval(idle: f.server.policy.sessionIdle))
        #expect(interval == 60)
        f.clock.advance(by: 3600)
        _ = try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: browser.token)
        let written = try #require(try f.flow.sessions.active(token: browser.token)).record
        #expect(written.lastSeenAt == f.clock.now)
        // Used again less than the interval later: the stored session stays as it was.
        f.clock.advance(by: interval - 1)
        _ = try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: browser.token)
        #expect(try #require(try f.flow.sessions.active(token: browser.token)).record == written)
        // A full interval after the last write: written again.
        f.clock.advance(by: 1)
        _ = try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: browser.token)
        let again = try #require(try f.flow.sessions.active(token: browser.token)).record
        #expect(again.lastSeenAt == written.lastSeenAt.addingTimeInterval(interval))
        #expect(again.idleExpiresAt == written.idleExpiresAt.addingTimeInterval(interval))
    }

    @Test func promptLoginAsksAgainDespiteASession() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let step = try f.flow.start(try f.request("first", prompt: ["login"]), client: try f.client("first"), sessionToken: browser.token)
        #expect(step.isSignIn)
    }

    @Test func promptNoneWithoutSessionIsLoginRequired() throws {
        let f = try CoreFixture()
        let step = try f.flow.start(try f.request("first", prompt: ["none"]), client: try f.client("first"), sessionToken: nil)
        guard case .error(let error, let redirectURI, let state) = step else { Issue.record("\(step)"); return }
        #expect(error.code == .loginRequired)
        #expect(redirectURI == "com.example.first:/cb")
        #expect(state == "s-1")
    }

    @Test func promptNoneWithSessionButNoConsentIsConsentRequired() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let step = try f.flow.start(try f.request("web", prompt: ["none"]), client: try f.client("web"), sessionToken: browser.token)
        #expect(step.errorCode == .consentRequired)
        let first = try f.flow.start(try f.request("first", prompt: ["none"]), client: try f.client("first"), sessionToken: browser.token)
        #expect(first.code != nil)
    }

    @Test func maxAgeIsSatisfiedOnlyWhileAuthTimePlusMaxAgeIsNotPast() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        f.clock.advance(by: 100)
        let fresh = try f.flow.start(try f.request("first", maxAge: 100), client: try f.client("first"), sessionToken: browser.token)
        #expect(fresh.code != nil)
        let stale = try f.flow.start(try f.request("first", maxAge: 99), client: try f.client("first"), sessionToken: browser.token)
        #expect(stale.isSignIn)
        let none = try f.flow.start(try f.request("first", prompt: ["none"], maxAge: 99), client: try f.client("first"), sessionToken: browser.token)
        #expect(none.errorCode == .loginRequired)
    }

    @Test func idTokenHintForAnotherUserNeedsSignIn() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let other = try f.flow.start(try f.request("first", hintedSubject: "someone-else"), client: try f.client("first"), sessionToken: browser.token)
        #expect(other.isSignIn)
        let same = try f.flow.start(try f.request("first", hintedSubject: browser.session.user.id), client: try f.client("first"),
                                    sessionToken: browser.token)
        #expect(same.code != nil)
    }

    @Test func afterSignInWithTheWrongUserForTheHintIsLoginRequired() throws {
        let f = try CoreFixture()
        let step = try f.flow.start(try f.request("first", hintedSubject: "someone-else"), client: try f.client("first"), sessionToken: nil)
        let pending = try f.flow.pending(handle: try #require(step.handle))
        let browser = try f.signedIn(try f.makeUser())
        #expect(try f.flow.afterSignIn(pending, session: browser.session).errorCode == .loginRequired)
    }

    @Test func aPendingRequestYieldsOneCodeOnly() throws {
        let f = try CoreFixture()
        let step = try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: nil)
        let pending = try f.flow.pending(handle: try #require(step.handle))
        let browser = try f.signedIn(try f.makeUser())
        #expect(try f.flow.afterSignIn(pending, session: browser.session).code != nil)
        #expect(throws: FlowError.requestNotFound) { try f.flow.afterSignIn(pending, session: browser.session) }
        #expect(throws: FlowError.requestNotFound) { try f.flow.pending(handle: pending.handle) }
    }

    @Test func aPendingRequestExpiresAfterTenMinutes() throws {
        let f = try CoreFixture()
        let step = try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: nil)
        let handle = try #require(step.handle)
        f.clock.advance(by: 599)
        _ = try f.flow.pending(handle: handle)
        f.clock.advance(by: 1)
        #expect(throws: FlowError.requestNotFound) { try f.flow.pending(handle: handle) }
        #expect(throws: FlowError.requestNotFound) { try f.flow.pending(handle: "sgq_not-a-real-handle") }
    }

    @Test func expiredOrEndedSessionsAreNotUsed() throws {
        let f = try CoreFixture { $0.sessionIdle = 600; $0.sessionAbsolute = 1000 }
        let browser = try f.signedIn(try f.makeUser())
        f.clock.advance(by: 599)
        #expect(try f.flow.sessions.active(token: browser.token) != nil)
        f.clock.advance(by: 2)
        #expect(try f.flow.sessions.active(token: browser.token) == nil, "idle timeout")

        let second = try f.signedIn(try f.makeUser("bob@example.com"))
        for _ in 0..<3 {   // used every 400 s: idle never runs out, the absolute timeout does
            f.clock.advance(by: 400)
            if let session = try f.flow.sessions.active(token: second.token) { _ = try f.flow.sessions.touch(session) }
        }
        #expect(try f.flow.sessions.active(token: second.token) == nil, "absolute timeout")

        let third = try f.signedIn(try f.makeUser("carol@example.com"))
        #expect(try f.flow.sessions.end(token: third.token))
        #expect(try f.flow.sessions.active(token: third.token) == nil, "ended")
        #expect(try f.flow.start(try f.request("first"), client: try f.client("first"), sessionToken: third.token).isSignIn)
    }

    @Test func aDisabledUsersSessionIsNotUsed() throws {
        let f = try CoreFixture()
        let user = try f.makeUser()
        let browser = try f.signedIn(user)
        try f.storage.users.setDisabled(userID: user.id, disabledAt: f.clock.now, now: f.clock.now)
        #expect(try f.flow.sessions.active(token: browser.token) == nil)
    }
}
