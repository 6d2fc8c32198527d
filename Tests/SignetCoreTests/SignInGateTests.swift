import Foundation
@testable import SignetCore
import SignetStore
import SignetWire
import Testing

/// The sign-in gate's decision for every way in × every policy (docs/sign-in.md, "The sign-in
/// gate"): the table a new way in or a new rule is checked against.
@Suite struct SignInGateTests {
    /// `example.com` governed by connection `corp`, `sso_required` or optional.
    struct Governed: HomeRealmLookup {
        let required: Bool
        func decision(forEmail email: String) throws -> HomeRealmDecision {
            email.hasSuffix("@example.com") ? .governed(connectionID: "corp", organizationID: "org-1", ssoRequired: required) : .local
        }
    }

    enum Policy: String, CaseIterable, Sendable {
        case none, totp, mfaRequiredClient, acrMFA, acrPHR, ssoRequired, ssoOptional, unconfirmedWithRule, disabled
    }

    /// A way's first-factor methods and connection, as its route hands them to the gate.
    static func event(_ way: SignInWay, user: UserRecord, connection: String = "google") -> SignInEvent {
        switch way {
        case .password, .invitation, .signUp, .session: SignInEvent(user: user, amr: ["pwd"], way: way)
        case .emailCode, .emailLink: SignInEvent(user: user, amr: ["otp"], way: way)
        case .passkey, .nativePasskey: SignInEvent(user: user, amr: ["hwk", "user"], way: way)
        case .federation, .nativeIDToken: SignInEvent(user: user, amr: ["fed"], way: way, connectionID: connection)
        }
    }

    /// What the gate must answer for `way` under `policy` (a user of `alice@example.com`).
    static func expected(_ way: SignInWay, _ policy: Policy) -> String {
        let passkey = way == .passkey || way == .nativePasskey
        switch policy {
        case .none, .ssoOptional: return "proceed"
        case .disabled: return "refused"
        case .totp, .mfaRequiredClient, .acrMFA:
            if passkey { return "proceed" }
            return policy == .totp ? "secondFactor" : "enrolSecondFactor"
        case .acrPHR: return passkey ? "proceed" : "unmet"
        case .ssoRequired: return way == .session ? "proceed" : "organizationIdP"
        case .unconfirmedWithRule:
            let proves = [.emailCode, .emailLink, .signUp, .invitation].contains(way) || way.isFederated
            return proves ? "proceed" : "verificationRequired"
        }
    }

    static func name(_ decision: SignInDecision) -> String {
        switch decision {
        case .proceed: "proceed"
        case .secondFactor: "secondFactor"
        case .enrolSecondFactor: "enrolSecondFactor"
        case .unmet: "unmet"
        case .freshSignIn: "freshSignIn"
        case .organizationIdP: "organizationIdP"
        case .verificationRequired: "verificationRequired"
        case .refused: "refused"
        }
    }

    @Test(arguments: SignInWay.allCases, Policy.allCases)
    func everyWayUnderEveryPolicy(way: SignInWay, policy: Policy) throws {
        let f = try CoreFixture()
        var user = try f.makeUser("alice@example.com")
        if policy != .unconfirmedWithRule {
            try f.storage.users.updateProfile(userID: user.id, name: user.name, givenName: nil, familyName: nil, emailVerified: true, now: f.clock.now)
            user.emailVerified = true
        }
        if policy == .disabled { user.disabledAt = f.clock.now }
        if policy == .totp {
            let service = SecondFactorService(server: f.server, key: [UInt8](repeating: 9, count: 32))
            let totp = try #require(try service.enrolment(userID: user.id))
            guard case .success = try service.confirm(userID: user.id, code: totp.code(step: TOTP.step(at: f.clock.now))) else {
                Issue.record("no factor"); return
            }
        }
        let realms: any HomeRealmLookup = switch policy {
        case .ssoRequired: Governed(required: true)
        case .ssoOptional: Governed(required: false)
        default: NoHomeRealms()
        }
        let gate = SignInGate(server: f.server, realms: realms, requireVerifiedEmail: policy == .unconfirmedWithRule)
        var clientID = "first"
        if policy == .mfaRequiredClient {
            var record = try #require(try f.storage.clients.client(id: "first"))
            record.id = "first-mfa"
            record.extra = Client.extra(mfaRequired: true, applicationType: .native)
            try f.storage.clients.upsertClient(record)
            clientID = "first-mfa"
        }
        let client = try f.client(clientID)
        let acr: String? = policy == .acrMFA ? "urn:signet:acr:mfa" : policy == .acrPHR ? "urn:signet:acr:phr" : nil
        var request = try f.request(clientID)
        if let acr { request.acrValues = acr }
        let decision = try gate.decide(Self.event(way, user: user), for: .request(request, client: client))
        #expect(Self.name(decision) == Self.expected(way, policy), "\(way) under \(policy)")
        if case .proceed(let admission) = decision {
            #expect(admission.user.id == user.id && admission.amr == Self.event(way, user: user).amr && admission.authTime == f.clock.now)
        } else {
            let audited = try f.storage.audit.recentAudit(limit: 10).filter { $0.event == "sign_in_gate" }
            #expect(audited.count == 1 && audited.first?.method == way.rawValue && audited.first?.reason == decision.reason)
        }
    }

    @Test func aFederatedWayThroughTheGoverningConnectionProceedsAndAnotherDoesNot() throws {
        let f = try CoreFixture()
        let user = try f.makeUser("alice@example.com")
        let gate = SignInGate(server: f.server, realms: Governed(required: true), requireVerifiedEmail: false)
        let client = try f.client("first")
        for way in [SignInWay.federation, .nativeIDToken] {
            let own = try gate.decide(Self.event(way, user: user, connection: "corp"), for: .client(client))
            #expect(Self.name(own) == "proceed")
            let other = try gate.decide(Self.event(way, user: user, connection: "google"), for: .client(client))
            #expect(Self.name(other) == "organizationIdP")
        }
    }

    @Test func aSessionIsAdmittedOnlyWhenFreshEnoughAndAtItsLevel() throws {
        let f = try CoreFixture()
        let user = try f.makeUser("bob@example.org")
        let session = try f.signedIn(user).session
        let gate = f.flow.gate
        let client = try f.client("first")
        #expect(Self.name(try gate.admit(session, for: .request(try f.request("first"), client: client))) == "proceed")
        f.clock.advance(by: 10)
        #expect(Self.name(try gate.admit(session, for: .request(try f.request("first", maxAge: 5), client: client))) == "freshSignIn")
        #expect(Self.name(try gate.admit(session, for: .request(try f.request("first", hintedSubject: "someone-else"), client: client)))
                == "freshSignIn")
        var mfa = try f.request("first")
        mfa.acrValues = "urn:signet:acr:mfa"
        #expect(Self.name(try gate.admit(session, for: .request(mfa, client: client))) == "enrolSecondFactor")
        var phr = try f.request("first")
        phr.acrValues = "urn:signet:acr:phr"
        #expect(Self.name(try gate.admit(session, for: .request(phr, client: client))) == "freshSignIn")
        // A pending prompt=login request received after the sign-in needs a new one.
        let pending = PendingRequest(handle: "h", request: try f.request("first", prompt: ["login"]), client: client, createdAt: f.clock.now)
        #expect(Self.name(try gate.admit(session, for: .pending(pending))) == "freshSignIn")
    }
}
