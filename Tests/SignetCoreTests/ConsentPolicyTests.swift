import Foundation
import SignetCore
import SignetStore
import SignetWire
import Testing

@Suite struct ConsentPolicyTests {
    /// Signs in (no session yet), then returns what follows sign-in.
    func afterSignIn(_ f: CoreFixture, _ request: AuthorizationRequest, session: ActiveSession) throws -> (FlowStep, PendingRequest) {
        let step = try f.flow.start(request, client: try f.client(request.clientID), sessionToken: nil)
        let pending = try f.flow.pending(handle: try #require(step.handle))
        return (try f.flow.afterSignIn(pending, session: session), pending)
    }

    @Test func firstPartyClientsSkipConsent() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        #expect(try afterSignIn(f, try f.request("first"), session: browser.session).0.code != nil)
    }

    @Test func thirdPartyConsentIsRememberedWhenAllowed() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let (step, pending) = try afterSignIn(f, try f.request("web"), session: browser.session)
        #expect(step.isConsent)
        #expect(try f.flow.decideConsent(pending, session: browser.session, allow: true).code != nil)
        let remembered = try #require(try f.storage.consents.consent(userID: browser.session.user.id, clientID: "web"))
        #expect(Set(remembered.scopes) == ["openid", "profile"])
        // Next time: straight to a code, for the same or fewer scopes.
        #expect(try f.flow.start(try f.request("web"), client: try f.client("web"), sessionToken: browser.token).code != nil)
        #expect(try f.flow.start(try f.request("web", scope: "openid"), client: try f.client("web"), sessionToken: browser.token).code != nil)
        // More scopes than remembered: asked again.
        #expect(try f.flow.start(try f.request("web", scope: "openid email"), client: try f.client("web"), sessionToken: browser.token).isConsent)
    }

    @Test func privateUseSchemeThirdPartyIsAskedEveryTime() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        #expect(try f.client("native").mustAlwaysAskConsent)
        let (step, pending) = try afterSignIn(f, try f.request("native"), session: browser.session)
        #expect(step.isConsent)
        #expect(try f.flow.decideConsent(pending, session: browser.session, allow: true).code != nil)
        #expect(try f.storage.consents.consent(userID: browser.session.user.id, clientID: "native") == nil)
        #expect(try f.flow.start(try f.request("native"), client: try f.client("native"), sessionToken: browser.token).isConsent)
    }

    /// RFC 8252 §8.6: any local process can listen on loopback, so a third-party public client
    /// with a loopback redirect URI is asked every time; a confidential one proves itself at /token.
    @Test func loopbackThirdPartyPublicClientIsAskedEveryTime() throws {
        let f = try CoreFixture()
        for (id, isPublic) in [("loop", true), ("loop-server", false)] {
            try f.storage.clients.upsertClient(ClientRecord(
                id: id, name: id, secretHash: isPublic ? nil : [1, 2, 3], isPublic: isPublic,
                redirectURIs: ["http://127.0.0.1/cb"], allowedScopes: ["openid", "profile"],
                grantTypes: ["authorization_code"], tokenEndpointAuthMethod: isPublic ? "none" : "client_secret_basic",
                allowedResources: ["https://api.example.com"], createdAt: f.clock.now, updatedAt: f.clock.now))
        }
        #expect(try f.client("loop").mustAlwaysAskConsent)
        #expect(try !f.client("loop-server").mustAlwaysAskConsent)
        #expect(try !f.client("web").mustAlwaysAskConsent)
        let browser = try f.signedIn(try f.makeUser())
        let (step, pending) = try afterSignIn(f, try f.request("loop"), session: browser.session)
        #expect(step.isConsent)
        #expect(try f.flow.decideConsent(pending, session: browser.session, allow: true).code != nil)
        #expect(try f.storage.consents.consent(userID: browser.session.user.id, clientID: "loop") == nil)
        #expect(try f.flow.start(try f.request("loop", prompt: ["none"]), client: try f.client("loop"),
                                 sessionToken: browser.token).errorCode == .consentRequired)
    }

    @Test func denyIsAccessDeniedAndConsumesTheRequest() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let (_, pending) = try afterSignIn(f, try f.request("web"), session: browser.session)
        #expect(try f.flow.decideConsent(pending, session: browser.session, allow: false).errorCode == .accessDenied)
        #expect(try f.storage.consents.consent(userID: browser.session.user.id, clientID: "web") == nil)
        #expect(throws: FlowError.requestNotFound) { try f.flow.decideConsent(pending, session: browser.session, allow: true) }
    }

    @Test func promptConsentForcesThePageEvenForFirstParty() throws {
        let f = try CoreFixture()
        let browser = try f.signedIn(try f.makeUser())
        let step = try f.flow.start(try f.request("first", prompt: ["consent"]), client: try f.client("first"), sessionToken: browser.token)
        #expect(step.isConsent)
    }

    @Test func consentNeedsASessionThatSatisfiesTheRequest() throws {
        let f = try CoreFixture()
        let old = try f.signedIn(try f.makeUser())
        f.clock.advance(by: 10)
        // prompt=login: a session from before the request does not count, so the consent step
        // cannot be used to skip signing in again.
        let step = try f.flow.start(try f.request("web", prompt: ["login"]), client: try f.client("web"), sessionToken: old.token)
        let pending = try f.flow.pending(handle: try #require(step.handle))
        #expect(try f.flow.decideConsent(pending, session: old.session, allow: true).isSignIn)
        #expect(try f.flow.decideConsent(pending, session: nil, allow: true).isSignIn)
        f.clock.advance(by: 5)
        let fresh = try f.signedIn(old.session.user)
        #expect(try f.flow.decideConsent(pending, session: fresh.session, allow: true).code != nil)
    }
}
