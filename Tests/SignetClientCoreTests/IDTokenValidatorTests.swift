import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct IDTokenValidatorTests {
    let provider: MockProvider

    init() throws {
        provider = try MockProvider(flavor: .google, clientID: "app-1")
    }

    func validator(audiences: Set<String> = ["app-1"], nonce: IDTokenPolicy.NonceCheck = .required,
                   algorithms: Set<SignatureAlgorithm> = [.rs256, .es256], of other: MockProvider? = nil) -> IDTokenValidator {
        let provider = other ?? self.provider
        let keys = JWKSCache(jwksURI: provider.jwksURL, http: OutboundHTTP())
        return IDTokenValidator(policy: IDTokenPolicy(issuer: provider.issuer, audiences: audiences, nonce: nonce,
                                                      allowedAlgorithms: algorithms), keys: keys)
    }

    func refusal(_ token: String, _ validator: IDTokenValidator? = nil, accessToken: String? = nil) async -> IDTokenError? {
        do {
            _ = try await (validator ?? self.validator()).validate(token, accessToken: accessToken)
            return nil
        } catch {
            return error
        }
    }

    @Test func acceptsAValidTokenAndReadsTypedClaims() async throws {
        let token = try provider.mintIDToken(nonce: "n-1")
        let validated = try await validator(nonce: .equals("n-1")).validate(token)
        #expect(validated.subject == "mock-user-1")
        #expect(validated.issuer == provider.issuer)
        #expect(validated.audience == ["app-1"])
        #expect(validated.email == "alice@example.com")
        #expect(validated.emailVerified == true)
        #expect(validated.nonce == "n-1")
    }

    @Test func appleStringEmailVerifiedIsUnderstood() {
        #expect(ValidatedIDToken.flexibleBool(.string("true")) == true)
        #expect(ValidatedIDToken.flexibleBool(.string("false")) == false)
        #expect(ValidatedIDToken.flexibleBool(.bool(false)) == false)
        #expect(ValidatedIDToken.flexibleBool(.string("TRUE")) == nil)
        #expect(ValidatedIDToken.flexibleBool(.int(1)) == nil)
    }

    @Test func refusesEachBadToken() async throws {
        #expect(await refusal(try provider.mintIDToken(nonce: "n", signing: .badSignature)) == .jose(.badSignature))
        #expect(await refusal(try provider.mintIDToken(nonce: "n", signing: .forgedWithPublishedKeyID)) == .jose(.badSignature))
        #expect(await refusal(try provider.mintIDToken(nonce: "n", signing: .unknownKeyID)) == .key(.unknownKeyID))
        #expect(await refusal(try provider.mintIDToken(nonce: "n", signing: .algorithmNone)) == .jose(.algorithmNone))
        #expect(await refusal(try provider.mintIDToken(nonce: "n", signing: .hs256)) == .algorithmNotAllowed)
        #expect(await refusal(try provider.mintIDToken(nonce: "n", audience: "other-app")) == .wrongAudience)
        #expect(await refusal(try provider.mintIDToken(nonce: "n") { $0.iss = provider.issuer + "/" }) == .wrongIssuer)
        #expect(await refusal(try provider.mintIDToken(nonce: "n") { $0.exp = Date().addingTimeInterval(-120) }) == .expired)
        #expect(await refusal(try provider.mintIDToken(nonce: "n") { $0.iat = nil }) == .missingTimeClaim)
        #expect(await refusal(try provider.mintIDToken(nonce: "n") { $0.iat = Date().addingTimeInterval(600) }) == .badIssuedAt)
        #expect(await refusal(try provider.mintIDToken(nonce: "n") { $0.sub = nil }) == .missingSubject)
        #expect(await refusal(try provider.mintIDToken(nonce: nil)) == .missingNonce)
        #expect(await refusal(try provider.mintIDToken(nonce: "n"), validator(nonce: .equals("m"))) == .nonceMismatch)
        #expect(await refusal(try provider.mintIDToken(nonce: "n"), validator(algorithms: [.es256])) == .algorithmNotAllowed)
        #expect(await refusal("not.a.jwt") == .malformed)
        #expect(await refusal("") == .malformed)
    }

    @Test func thePolicysLimitsReachTheSignatureCheck() async throws {
        // Expired 120 s ago: refused with the default 60 s leeway, accepted once the policy's
        // leeway (written through `leeway`, kept in `limits`) covers it.
        let token = try provider.mintIDToken(nonce: "n") { $0.exp = Date().addingTimeInterval(-120) }
        var policy = IDTokenPolicy(issuer: provider.issuer, audiences: ["app-1"], nonce: .required)
        let keys = JWKSCache(jwksURI: provider.jwksURL, http: OutboundHTTP())
        #expect(await refusal(token, IDTokenValidator(policy: policy, keys: keys)) == .expired)
        policy.leeway = 300
        #expect(policy.limits.leeway == 300)
        _ = try await IDTokenValidator(policy: policy, keys: keys).validate(token)
        // The policy's clock is the one the JOSE layer reads: two hours on, the token has expired.
        policy.clock = { Date().addingTimeInterval(7200) }
        #expect(await refusal(try provider.mintIDToken(nonce: "n"), IDTokenValidator(policy: policy, keys: keys)) == .expired)
        // And its size limit: a token over it is refused before any key lookup.
        policy.limits.maxTokenBytes = 64
        #expect(await refusal(token, IDTokenValidator(policy: policy, keys: keys)) == .malformed)
    }

    @Test func severalAudiencesNeedAnAuthorizedPartyOfOurs() async throws {
        let noAZP = try provider.mintIDToken(nonce: "n") { $0.aud = ["app-1", "other"]; $0["azp"] = nil }
        #expect(await refusal(noAZP) == .wrongAuthorizedParty)
        let foreignAZP = try provider.mintIDToken(nonce: "n") { $0.aud = ["app-1", "other"]; $0["azp"] = "other" }
        #expect(await refusal(foreignAZP) == .wrongAuthorizedParty)
        let ours = try provider.mintIDToken(nonce: "n") { $0.aud = ["app-1", "other"]; $0["azp"] = "app-1" }
        #expect(await refusal(ours) == nil)
    }

    @Test func checksAtHashWhenAnAccessTokenIsGiven() async throws {
        let claims = provider.idTokenClaims(nonce: "n", accessToken: "at-123")
        let token = try provider.sign(claims)
        #expect(await refusal(token, accessToken: "at-123") == nil)
        #expect(await refusal(token, accessToken: "at-456") == .atHashMismatch)
        #expect(await refusal(try provider.mintIDToken(nonce: "n"), accessToken: "at-123") == .atHashMismatch)
    }

    /// The JOSE header of a token, unverified.
    static func header(_ token: String) throws -> JSONValue {
        try JSONValue.parse(try #require(Base64URL.decode(String(token.split(separator: ".")[0]))), maximumDepth: 4)
    }

    @Test func aTokenWithoutKidIsVerifiedWithTheSetsOnlyKey() async throws {
        // OpenID Connect Core §10.1 lets a provider with one key leave kid out; Authlib-based
        // providers (oidc-provider-mock) do.
        let single = try MockProvider(flavor: .google, clientID: "app-1")
        defer { single.stop() }
        single.behaviour.singleKeyWithoutKeyID = true
        let token = try single.mintIDToken(nonce: "n-1")
        #expect(try Self.header(token)["kid"] == nil)
        let validated = try await validator(nonce: .equals("n-1"), of: single).validate(token)
        #expect(validated.subject == "mock-user-1")
        #expect(validated.keyID == "mock-rs-1")
        // Everything else is still checked.
        #expect(await refusal(try single.mintIDToken(nonce: "n-1"), validator(nonce: .equals("n-2"), of: single)) == .nonceMismatch)
        #expect(await refusal(try single.mintIDToken(nonce: "n", audience: "other-app"), validator(of: single)) == .wrongAudience)
        // Once the set holds two keys, a token must name one.
        single.behaviour.singleKeyWithoutKeyID = false
        #expect(await refusal(token, validator(of: single)) == .jose(.missingKeyID))
    }

    @Test func aReplacedOnlyKeyIsRefetchedAtMostOncePerInterval() async throws {
        let single = try MockProvider(flavor: .google, clientID: "app-1")
        defer { single.stop() }
        single.behaviour.singleKeyWithoutKeyID = true
        let clock = ManualClock(Date())
        let keys = JWKSCache(jwksURI: single.jwksURL, http: OutboundHTTP(), minimumRefetchInterval: 60, clock: { clock.now })
        let validator = IDTokenValidator(policy: IDTokenPolicy(issuer: single.issuer, audiences: ["app-1"], nonce: .none), keys: keys)
        _ = try await validator.validate(try single.mintIDToken(nonce: nil))
        try single.rotateKeys()
        let rotated = try single.mintIDToken(nonce: nil)
        // Within the interval the cached key answers, and it does not verify the new signature.
        #expect(await refusal(rotated, validator) == .jose(.badSignature))
        #expect(single.requestCount("/jwks") == 1)
        clock.advance(by: 61)
        #expect(try await validator.validate(rotated).keyID == "mock-rs-2")
        #expect(single.requestCount("/jwks") == 2)
        // A kid-less forgery costs no further fetch within the interval.
        #expect(await refusal(try single.mintIDToken(nonce: nil, signing: .badSignature), validator) == .jose(.badSignature))
        #expect(single.requestCount("/jwks") == 2)
    }

    @Test func es256TokensOfAGenericProvider() async throws {
        let generic = try MockProvider(flavor: .generic, clientID: "app-1")
        defer { generic.stop() }
        let keys = JWKSCache(jwksURI: generic.jwksURL, http: OutboundHTTP())
        let validator = IDTokenValidator(policy: IDTokenPolicy(issuer: generic.issuer, audiences: ["app-1"], nonce: .none), keys: keys)
        let validated = try await validator.validate(try generic.mintIDToken(nonce: nil))
        #expect(validated.keyID == "mock-es-1")
    }
}
