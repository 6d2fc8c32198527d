import SignetFederation
import SignetJOSE
import SignetTesting
import SignetWire
import Testing

/// `Connection.vouchesForEmail` and `Connection.checkPolicy`: the rules shared by the browser
/// callback and native ID-token sign-in (their end-to-end cases: FederationBadInputTests,
/// NativeSignInPolicyTests).
@Suite(.endToEndLimit) struct ConnectionIdentityPolicyTests {
    static func connection(_ type: ConnectionType, domains: [String]? = nil, hostedDomain: String? = nil) -> Connection {
        Connection(id: "c", type: type, clientID: "x", issuer: "https://op.example", allowedEmailDomains: domains,
                   hostedDomain: hostedDomain)
    }

    @Test func onlyAppleMaySayVerifiedWithAString() {
        for type in [ConnectionType.google, .oidc] {
            #expect(Self.connection(type).vouchesForEmail(.bool(true)))
            #expect(!Self.connection(type).vouchesForEmail(.string("true")))
            #expect(!Self.connection(type).vouchesForEmail(nil))
        }
        #expect(Self.connection(.apple).vouchesForEmail(.string("true")))
        #expect(Self.connection(.apple).vouchesForEmail(.bool(true)))
        #expect(!Self.connection(.apple).vouchesForEmail(.string("false")))
        #expect(!Self.connection(.apple).vouchesForEmail(.string("yes")))
    }

    @Test func domainsAdmitOnlyVerifiedEmailsInTheList() throws {
        let corp = Self.connection(.oidc, domains: ["corp.example"])
        func identity(_ email: String?, verified: Bool, hd: String? = nil) -> UpstreamIdentity {
            UpstreamIdentity(issuer: "https://op.example", subject: "s", email: email, emailVerified: verified, hostedDomain: hd)
        }
        try corp.checkPolicy(identity("a@corp.example", verified: true))
        try corp.checkPolicy(identity("a@CORP.example", verified: true))
        #expect(throws: FederationError.domainNotAllowed) { try corp.checkPolicy(identity("a@corp.example", verified: false)) }
        #expect(throws: FederationError.domainNotAllowed) { try corp.checkPolicy(identity("a@other.example", verified: true)) }
        #expect(throws: FederationError.emailNotVerified) { try corp.checkPolicy(identity(nil, verified: true)) }
        // Without a list, an unverified email is left to the account resolver (proof or refusal).
        try Self.connection(.oidc).checkPolicy(identity("a@other.example", verified: false))

        let workspace = Self.connection(.google, hostedDomain: "corp.example")
        try workspace.checkPolicy(identity("a@corp.example", verified: true, hd: "corp.example"))
        #expect(throws: FederationError.domainNotAllowed) { try workspace.checkPolicy(identity("a@corp.example", verified: true)) }
        #expect(throws: FederationError.domainNotAllowed) {
            try workspace.checkPolicy(identity("a@corp.example", verified: true, hd: "other.example"))
        }
    }
}
