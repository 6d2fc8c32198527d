import SignetWire
import Testing

@Suite struct AuthenticationLevelTests {
    /// RFC 8176 methods to Signet's acr values: a passkey is phr, a second factor mfa, one factor pwd.
    @Test func theLevelFollowsTheMethods() {
        #expect(AuthenticationLevel(amr: ["pwd"]) == .password)
        #expect(AuthenticationLevel(amr: ["fed"]) == .password)
        #expect(AuthenticationLevel(amr: ["otp"]) == .password)   // a one-time code alone is one factor
        #expect(AuthenticationLevel(amr: ["pwd", "otp", "mfa"]) == .multiFactor)
        #expect(AuthenticationLevel(amr: ["fed", "otp"]) == .multiFactor)
        #expect(AuthenticationLevel(amr: ["hwk", "user"]) == .phishingResistant)
        #expect(AuthenticationLevel(amr: ["swk", "user"]).acr == "urn:signet:acr:phr")
        #expect(AuthenticationLevel(amr: []) == .password)
    }

    /// OpenID Connect Core §3.1.2.1: any listed value is acceptable, so the weakest known one
    /// counts; unknown values are ignored.
    @Test func theRequestedLevelIsTheWeakestKnownValue() {
        #expect(AuthenticationLevel.requested(["urn:signet:acr:phr", "urn:signet:acr:mfa"]) == .multiFactor)
        #expect(AuthenticationLevel.requested(["urn:example:gold", "urn:signet:acr:phr"]) == .phishingResistant)
        #expect(AuthenticationLevel.requested(["urn:example:gold"]) == nil)
        #expect(AuthenticationLevel.requested([]) == nil)
        #expect(AuthenticationLevel.supportedValues == ["urn:signet:acr:pwd", "urn:signet:acr:mfa", "urn:signet:acr:phr"])
        #expect(AuthenticationLevel.phishingResistant > .multiFactor && AuthenticationLevel.multiFactor > .password)
    }
}
