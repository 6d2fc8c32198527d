import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE

/// Verifies the access tokens an API receives, per RFC 9068 (JWT access tokens) and RFC 6750.
///
/// Checks, in order: the `Authorization: Bearer` header; the JWS header's `typ` is `at+jwt`; the
/// signature with the key named by `kid` from the issuer's JWKS (an unknown `kid` refetches the
/// set, at most once per `minimumRefetchInterval`; never a fallback key); `iss` exactly; `aud`
/// contains this API's resource identifier; `exp` (with leeway); the required scopes. When a
/// token is not a JWT at all and introspection is configured, it asks the server instead.
///
/// ```swift
/// let validator = try await AccessTokenValidator.discover(issuer: "https://id.example.com",
///                                                         audience: "https://api.example.com")
/// let token = try await validator.validate(authorization: request.headers["Authorization"], requiredScopes: ["orders.read"])
/// ```
public struct AccessTokenValidator: Sendable {
    /// The exact issuer.
    public let issuer: String
    /// This API's resource identifier: tokens must name it in `aud` (RFC 9068 §4).
    public let audience: String
    /// Signature algorithms accepted (each key also pins its own).
    public let allowedAlgorithms: Set<SignatureAlgorithm>
    /// Clock skew tolerated for `exp`/`iat`/`nbf`, seconds.
    public var leeway: TimeInterval { limits.leeway }
    /// The realm named in `WWW-Authenticate`.
    public let realm: String?
    let keys: any VerificationKeySource
    let introspection: TokenIntrospector?
    /// The leeway, the clock and JOSE's token size limit, handed to the verifier as they are.
    let limits: TokenLimits

    /// A validator with a key source in hand (a `JWKSCache`, or static keys in tests).
    public init(issuer: String, audience: String, keys: any VerificationKeySource,
                allowedAlgorithms: Set<SignatureAlgorithm> = [.rs256, .es256, .ps256, .edDSA], leeway: TimeInterval = 30,
                realm: String? = nil, introspection: TokenIntrospector? = nil,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.issuer = issuer
        self.audience = audience
        self.keys = keys
        self.allowedAlgorithms = allowedAlgorithms
        self.limits = TokenLimits(leeway: leeway, clock: clock)
        self.realm = realm
        self.introspection = introspection
    }

    /// Discovers the issuer (checked exactly) and caches its JWKS.
    public static func discover(issuer: String, audience: String, http: OutboundHTTP = OutboundHTTP(),
                                minimumRefetchInterval: TimeInterval = 60, realm: String? = nil,
                                introspection: TokenIntrospector? = nil) async throws(DiscoveryError) -> AccessTokenValidator {
        let metadata = try await DiscoveryClient.fetch(issuer: issuer, http: http)
        let cache = JWKSCache(jwksURI: metadata.jwksURI, http: http, minimumRefetchInterval: minimumRefetchInterval)
        return AccessTokenValidator(issuer: issuer, audience: audience, keys: cache, realm: realm, introspection: introspection)
    }

    /// Validates the value of an `Authorization` header (`Bearer <token>`, RFC 6750 §2.1).
    public func validate(authorization: String?, requiredScopes: Set<String> = []) async throws(BearerError) -> ValidatedAccessToken {
        guard let authorization, !authorization.isEmpty else { throw .missingToken(realm: realm) }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw BearerError(.invalidRequest, "use the Bearer scheme", realm: realm)
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, !token.contains(" ") else { throw BearerError(.invalidRequest, "malformed bearer token", realm: realm) }
        return try await validate(token: token, requiredScopes: requiredScopes)
    }

    /// Validates a bearer token.
    public func validate(token: String, requiredScopes: Set<String> = []) async throws(BearerError) -> ValidatedAccessToken {
        let validated: ValidatedAccessToken
        if let header = Self.header(of: token) {
            validated = try await verifyJWT(token, header: header)
        } else if let introspection {
            validated = try await introspection.introspect(token, issuer: issuer, audience: audience, realm: realm, now: limits.clock(),
                                                           leeway: limits.leeway)
        } else {
            throw invalid("the token is not a JWT")
        }
        let missing = requiredScopes.subtracting(validated.scopes)
        guard missing.isEmpty else {
            throw BearerError(.insufficientScope, "the token lacks a required scope",
                              scope: requiredScopes.sorted().joined(separator: " "), realm: realm)
        }
        return validated
    }

    private func verifyJWT(_ token: String, header: [String: JSONValue]) async throws(BearerError) -> ValidatedAccessToken {
        // RFC 9068 §4: typ must be at+jwt, which keeps ID tokens from being used as access tokens.
        guard let type = header["typ"]?.stringValue,
              ["at+jwt", "application/at+jwt"].contains(type.lowercased()) else { throw invalid("the token is not an RFC 9068 access token (typ)") }
        guard let algorithmName = header["alg"]?.stringValue,
              allowedAlgorithms.contains(where: { $0.rawValue == algorithmName }) else { throw invalid("algorithm not allowed") }
        guard let kid = header["kid"]?.stringValue else { throw invalid("the token names no key") }
        let key: VerificationKey
        do {
            key = try await keys.keys(for: kid)
        } catch .unknownKeyID {
            throw invalid("unknown signing key")
        } catch {
            // The key set cannot be fetched: the token is not at fault (503, not invalid_token).
            throw BearerError(.temporarilyUnavailable, "the issuer's signing keys cannot be fetched; try again later", realm: realm)
        }
        var policy = VerificationPolicy(issuer: issuer, audience: audience, allowedTypes: ["at+jwt"], requireExp: true)
        policy.limits = limits
        let verified: VerifiedJWT
        do {
            verified = try JWTVerifier(keys: [key], policy: policy).verify(token)
        } catch {
            throw invalid(Self.describe(error))
        }
        guard let subject = verified.claims.sub, !subject.isEmpty else { throw invalid("the token has no sub") }
        return ValidatedAccessToken(claims: verified.claims)
    }

    private func invalid(_ description: String) -> BearerError { BearerError(.invalidToken, description, realm: realm) }

    /// The JOSE header of a compact JWS, or nil when the token is not one.
    static func header(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(parts[0]),
              case .object(let header)? = try? JSONValue.parse(bytes) else { return nil }
        return header
    }

    static func describe(_ error: JOSEError) -> String {
        switch error {
        case .expired, .missingExpiration: "the token has expired"
        case .wrongAudience: "the token is for another audience"
        case .wrongIssuer: "the token is from another issuer"
        case .badSignature, .algorithmMismatch: "bad signature"
        case .notYetValid, .issuedInFuture: "the token is not valid yet"
        case .wrongType: "the token is not an RFC 9068 access token (typ)"
        default: "the token is invalid"
        }
    }
}
