import Foundation
import SignetCore
import SignetStore
import Testing

/// Home-realm discovery as a pure decision: what a claim, the configuration and the enabled
/// connections make of one domain.
@Suite struct HomeRealmDecisionTests {
    static func claim(verified: Bool = true, connection: String? = "acme-sso",
                      policy: OrganizationDomainRecord.Policy = .ssoRequired) -> OrganizationDomainRecord {
        OrganizationDomainRecord(domain: "acme.test", organizationID: "org_acme", verificationToken: "t",
                                 verifiedAt: verified ? Date(timeIntervalSince1970: 1) : nil, verifiedBy: verified ? .dns : nil,
                                 connectionID: connection, policy: policy, createdAt: Date(timeIntervalSince1970: 0))
    }

    let all: (String) -> Bool = { _ in true }

    @Test func aVerifiedBoundClaimGovernsAndWinsOverTheConfiguration() {
        let decision = HomeRealmDecision.decide(claim: Self.claim(), configured: "google", isEnabled: all)
        #expect(decision == .governed(connectionID: "acme-sso", organizationID: "org_acme", ssoRequired: true))
        #expect(decision.connectionID == "acme-sso")
        #expect(decision.ssoRequired)
        #expect(decision.allowsProvider("acme-sso"))
        #expect(!decision.allowsProvider("google"))
    }

    @Test func anOptionalPolicySendsTheUserButRefusesNothing() {
        let decision = HomeRealmDecision.decide(claim: Self.claim(policy: .optional), configured: nil, isEnabled: all)
        #expect(decision == .governed(connectionID: "acme-sso", organizationID: "org_acme", ssoRequired: false))
        #expect(!decision.ssoRequired)
        #expect(decision.allowsProvider("google"))
    }

    @Test func unverifiedOrUnboundClaimsGovernNothing() {
        #expect(HomeRealmDecision.decide(claim: Self.claim(verified: false), configured: nil, isEnabled: all) == .local)
        #expect(HomeRealmDecision.decide(claim: Self.claim(connection: nil), configured: nil, isEnabled: all) == .local)
        #expect(HomeRealmDecision.decide(claim: Self.claim(verified: false), configured: "google", isEnabled: all)
                == .configured(connectionID: "google"))
        #expect(HomeRealmDecision.decide(claim: nil, configured: nil, isEnabled: all) == .local)
    }

    @Test func aRequiredDomainWhoseConnectionIsOffFailsClosed() {
        let decision = HomeRealmDecision.decide(claim: Self.claim(), configured: "google", isEnabled: { $0 != "acme-sso" })
        #expect(decision == .unavailable(connectionID: "acme-sso", organizationID: "org_acme"))
        #expect(decision.connectionID == nil)
        #expect(decision.ssoRequired)
        #expect(!decision.allowsProvider("google"))
        // An optional one falls back to the configuration.
        #expect(HomeRealmDecision.decide(claim: Self.claim(policy: .optional), configured: "google", isEnabled: { $0 != "acme-sso" })
                == .configured(connectionID: "google"))
    }

    @Test func aDisabledConfiguredConnectionSendsNobody() {
        #expect(HomeRealmDecision.decide(claim: nil, configured: "google", isEnabled: { _ in false }) == .local)
    }
}
