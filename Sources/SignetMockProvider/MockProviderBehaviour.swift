/// Misbehaviour switches of a `MockProvider`. All off by default; change them at any time with
/// `MockProvider.behaviour` (they apply to the next request).
public struct MockProviderBehaviour: Sendable {
    /// ID tokens carry `iss` = `https://evil.example` instead of the issuer; so does discovery
    /// when `wrongDiscoveryIssuer` is set.
    public var wrongIssuer = false
    /// `/auth/revoke` answers with this status (e.g. 503) instead of checking the call.
    public var revocationStatus: Int?
    /// The discovery document names another issuer.
    public var wrongDiscoveryIssuer = false
    /// ID tokens carry `aud` = `someone-else`.
    public var wrongAudience = false
    /// ID tokens expired an hour ago.
    public var expiredTokens = false
    /// ID token signatures are corrupted.
    public var badSignature = false
    /// ID tokens name a `kid` that is not published.
    public var unknownKeyID = false
    /// The JWKS publishes only the signing key and ID tokens carry no `kid`, as OpenID Connect
    /// Core §10.1 allows for a single key (Authlib-based providers do this).
    public var singleKeyWithoutKeyID = false
    /// When set, the discovery document offers exactly these token-endpoint authentication
    /// methods and the token endpoint accepts only them (client_secret_basic: the Authorization
    /// header; client_secret_post: the form). Otherwise both are offered and accepted.
    public var tokenEndpointAuthMethods: [String]?
    /// ID tokens carry no `email`, `email_verified` or `name`; `/userinfo` has them (OpenID
    /// Connect Core §5.4 allows this for the code flow).
    public var claimsOnlyInUserinfo = false
    /// `/userinfo` answers with this `sub` instead of the user's.
    public var userinfoSubject: String?
    /// `email_verified` is sent as a string ("true"/"false") even outside the Apple flavor.
    public var emailVerifiedAsString = false
    /// ID tokens carry no `nonce` even when the authorization request had one.
    public var omitNonce = false
    /// Seconds every endpoint (except `/authorize`) waits before answering.
    public var delaySeconds: Double = 0
    /// Discovery, JWKS, token, userinfo and GitHub API responses are invalid JSON.
    public var malformedJSON = false
    /// `/authorize` answers with this `error` (e.g. `access_denied`) instead of a code.
    public var callbackError: String?
    /// `/authorize` redirects back with a different `state`.
    public var wrongState = false
    /// The token endpoint answers with a 302 to itself (outbound clients must not follow).
    public var redirectTokenEndpoint = false
    /// The discovery document names these URLs for these members instead of its own (for
    /// example `token_endpoint` = `http://10.0.0.1/token`: a compromised document).
    public var discoveredEndpoints: [String: String] = [:]
    /// The key set (`/jwks`) answers 503: the provider's keys cannot be fetched.
    public var jwksUnavailable = false

    /// RFC 9207 `iss` in the authorization response: not advertised (`.none`, the default);
    /// advertised (`authorization_response_iss_parameter_supported`) and sent as the issuer
    /// (`.correct`), left out (`.missing`), or sent as `https://evil.example` (`.wrong`).
    public var responseIssuer: ResponseIssuer = .none
    /// ID tokens carry this `hd` (Google's hosted domain claim).
    public var hostedDomainClaim: String?
    /// Every endpoint (except `/authorize`) holds its request until `MockProvider.release()`.
    public var holdRequests = false

    /// How `/authorize` answers with `iss` (RFC 9207).
    public enum ResponseIssuer: Sendable { case none, correct, missing, wrong }

    /// Everything off.
    public init() {}
}
