import Foundation
import SignetCrypto
import SignetJOSE
import SignetStore
import SignetWire

/// Mints Signet's JWTs: RFC 9068 access tokens and OpenID Connect ID tokens.
public struct TokenIssuer: Sendable {
    /// Lifetimes and algorithms.
    public let policy: ServerPolicy
    /// Signing keys.
    public let keyRing: SigningKeyRing
    /// The clock.
    public let clock: any Clock
    /// Random source for `jti`.
    public let random: any RandomSource

    /// What an access token says.
    public struct AccessTokenContent: Sendable {
        /// The user's `sub`, or the client id for client credentials (RFC 9068 §2.2).
        public var subject: String
        /// The client it was issued to.
        public var clientID: String
        /// The granted scope.
        public var scope: Scope
        /// Audiences: the RFC 8707 resource, or the issuer by default.
        public var audience: [String]
        /// The grant family, so revocation reaches self-contained tokens.
        public var grantID: String?
        /// When the user authenticated.
        public var authTime: Date?
        /// Lifetime override, seconds.
        public var lifetime: Int?
        /// How the user authenticated (RFC 8176 `amr`), from which `acr` follows; empty: neither claim.
        public var amr: [String] = []
        /// The organization of the grant (scope `organization`): `org_id`, `org_slug`, `org_roles`.
        public var organization: OrganizationMembership?
    }

    /// An RFC 9068 JWT access token (`typ: at+jwt`) and its lifetime in seconds.
    ///
    /// The claims are written member by member in one fixed order (the RFC's, then Signet's own):
    /// no dictionary and no sorting for a payload built on every token request (building and
    /// sorting a dictionary of a dozen claims was 5 % of a rotation's instructions,
    /// bench/README.md "Session 15 (lead)").
    public func accessToken(_ content: AccessTokenContent) throws -> (token: String, expiresIn: Int) {
        let now = Int(clock.now.timeIntervalSince1970)
        let lifetime = content.lifetime ?? policy.accessTokenLifetime
        var claims = JSONObjectWriter(capacity: 512)
        claims.add("iss", policy.issuer)
        claims.add("sub", content.subject)
        if content.audience.count == 1 {
            claims.add("aud", content.audience[0])
        } else {
            claims.add("aud", .array(content.audience.map(JSONValue.string)))
        }
        claims.add("client_id", content.clientID)
        claims.add("iat", now)
        claims.add("exp", now + lifetime)
        claims.add("jti", Base64URL.encode(random.bytes(16)))
        if !content.scope.isEmpty { claims.add("scope", content.scope.description) }
        claims.add("gid", content.grantID)
        // RFC 9068 §2.2.3.1: auth_time, acr and amr may be carried, so an API can ask for a step-up (RFC 9470).
        if let authTime = content.authTime { claims.add("auth_time", Int(authTime.timeIntervalSince1970)) }
        if !content.amr.isEmpty {
            claims.add("amr", .array(content.amr.map(JSONValue.string)))
            claims.add("acr", AuthenticationLevel(amr: content.amr).acr)
        }
        // RFC 9068 §2.2: an access token may carry further claims; these are the organization's.
        if let organization = content.organization { claims.add(contentsOf: OrganizationSelection.claims(organization)) }
        let signer = try keyRing.signer(for: policy.accessTokenAlgorithm)
        return (try signer.sign(payload: claims.finished(), type: "at+jwt"), lifetime)
    }

    /// What an ID token says (OpenID Connect Core §2).
    public struct IDTokenContent: Sendable {
        /// The user.
        public var user: UserRecord
        /// The client (audience and authorized party).
        public var client: Client
        /// The granted scope: `profile` and `email` add their claims.
        public var scope: Scope
        /// The request's nonce.
        public var nonce: String?
        /// When the user authenticated.
        public var authTime: Date
        /// Authentication methods (`pwd`, `fed`).
        public var amr: [String]
        /// The public session id, for logout.
        public var sessionID: String?
        /// The access token issued alongside, for `at_hash`.
        public var accessToken: String?
        /// The organization of the grant (scope `organization`).
        public var organization: OrganizationMembership?
    }

    /// A signed ID token with the client's algorithm: the claims written in one fixed order, as
    /// the access token's are.
    public func idToken(_ content: IDTokenContent) throws -> String {
        let now = Int(clock.now.timeIntervalSince1970)
        let algorithm = content.client.idTokenAlgorithm
        let lifetime = content.client.lifetimes.idToken ?? policy.idTokenLifetime
        var claims = JSONObjectWriter(capacity: 640)
        claims.add("iss", policy.issuer)
        claims.add("sub", content.user.id)
        claims.add("aud", content.client.id)
        claims.add("azp", content.client.id)
        claims.add("iat", now)
        claims.add("exp", now + lifetime)
        claims.add("auth_time", Int(content.authTime.timeIntervalSince1970))
        claims.add("nonce", content.nonce)
        if !content.amr.isEmpty {
            claims.add("amr", .array(content.amr.map(JSONValue.string)))
            // OpenID Connect Core §2: the class the authentication satisfied, read from the methods used.
            claims.add("acr", AuthenticationLevel(amr: content.amr).acr)
        }
        claims.add("sid", content.sessionID)
        if let accessToken = content.accessToken {
            claims.add("at_hash", TokenIssuer.leftHalfHash(accessToken, algorithm: algorithm))
        }
        claims.add(contentsOf: UserClaims.claims(for: content.user, scope: content.scope))
        if let organization = content.organization { claims.add(contentsOf: OrganizationSelection.claims(organization)) }
        return try keyRing.signer(for: algorithm).sign(payload: claims.finished(), type: "JWT")
    }

    /// OpenID Connect Core §3.1.3.6: base64url of the left half of the hash of the token's ASCII
    /// bytes, with the hash of the ID token's algorithm (SHA-512 for Ed25519).
    public static func leftHalfHash(_ value: String, algorithm: SignatureAlgorithm) -> String {
        let digest = algorithm == .edDSA ? Digest.sha512(Array(value.utf8)) : Digest.sha256(Array(value.utf8))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}

/// The standard claims a user's scopes release (OpenID Connect Core §5.4).
public enum UserClaims {
    /// Claims for `profile` and `email`, with `sub` excluded (the caller sets it).
    public static func claims(for user: UserRecord, scope: Scope) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [:]
        if scope.contains(Scope.profile) {
            if let name = user.name { claims["name"] = .string(name) }
            if let given = user.givenName { claims["given_name"] = .string(given) }
            if let family = user.familyName { claims["family_name"] = .string(family) }
            claims["updated_at"] = .int(Int64(user.updatedAt.timeIntervalSince1970))
        }
        if scope.contains(Scope.email) {
            claims["email"] = .string(user.email)
            claims["email_verified"] = .bool(user.emailVerified)
        }
        return claims
    }
}
