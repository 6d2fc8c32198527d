import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE

extension MockProvider {
    /// The claims the provider would put in an ID token for `user` now, in the flavor's style,
    /// with the misbehaviour switches applied. `audience` defaults to `clientID`.
    public func idTokenClaims(nonce: String?, audience: String? = nil, accessToken: String? = nil) -> JWTClaims {
        let (user, behaviour) = state.withLock { ($0.user, $0.behaviour) }
        let now = clock()
        var claims = JWTClaims()
        claims.iss = behaviour.wrongIssuer ? "https://evil.example" : issuer
        claims.sub = user.subject
        let audience = behaviour.wrongAudience ? "someone-else" : (audience ?? clientID)
        claims.aud = [audience]
        let issuedAt = behaviour.expiredTokens ? now.addingTimeInterval(-7200) : now
        claims.iat = issuedAt
        claims.exp = issuedAt.addingTimeInterval(3600)
        if let nonce, !behaviour.omitNonce { claims.nonce = nonce }
        let stringFlags = flavor == .apple || behaviour.emailVerifiedAsString
        if let email = user.email, !behaviour.claimsOnlyInUserinfo {
            claims["email"] = .string(email)
            claims["email_verified"] = stringFlags ? .string(user.emailVerified ? "true" : "false") : .bool(user.emailVerified)
        }
        switch flavor {
        case .google:
            claims["azp"] = .string(audience)
            if let domain = behaviour.hostedDomainClaim { claims["hd"] = .string(domain) }
            if let name = user.name { claims["name"] = .string(name) }
        case .apple:
            claims["auth_time"] = .int(Int64(issuedAt.timeIntervalSince1970))
            claims["nonce_supported"] = .bool(true)
            claims["is_private_email"] = .string("false")
            claims["real_user_status"] = .int(2)
        case .generic, .github:
            if let name = user.name, !behaviour.claimsOnlyInUserinfo { claims["name"] = .string(name) }
            claims["auth_time"] = .int(Int64(issuedAt.timeIntervalSince1970))
        }
        if let accessToken {
            claims["at_hash"] = .string(IDTokenValidator.atHash(accessToken, algorithm: signingAlgorithm))
        }
        return claims
    }

    /// The algorithm the flavor signs ID tokens with.
    public var signingAlgorithm: SignatureAlgorithm { flavor == .generic ? .es256 : .rs256 }

    /// Mints an ID token directly, as the provider would hand it to a native app (Credential
    /// Manager, Apple's sheet). For Apple-style tokens pass the HASHED nonce
    /// (`RandomToken.sha256Hex(raw)`): Apple puts what the app passed, and apps pass the hash.
    ///
    /// - Parameters:
    ///   - configure: edits the claims after the defaults and the misbehaviour switches.
    ///   - signing: valid, or one of the broken signatures.
    public func mintIDToken(nonce: String?, audience: String? = nil, signing: MockSigning = .valid,
                            configure: (inout JWTClaims) -> Void = { _ in }) throws -> String {
        var claims = idTokenClaims(nonce: nonce, audience: audience)
        configure(&claims)
        return try sign(claims, signing: signing)
    }

    /// Signs arbitrary claims. `.valid` honours the `badSignature`/`unknownKeyID` switches.
    public func sign(_ claims: JWTClaims, signing: MockSigning = .valid) throws -> String {
        let (keys, behaviour) = state.withLock { ($0.keys, $0.behaviour) }
        var signing = signing
        if case .valid = signing {
            if behaviour.badSignature { signing = .badSignature }
            if behaviour.unknownKeyID { signing = .unknownKeyID }
        }
        let payload = claims.jsonValue.serialized()
        switch signing {
        case .valid:
            let signer = signingAlgorithm == .es256 ? keys.ec : keys.rsa
            if behaviour.singleKeyWithoutKeyID { return try Self.signWithoutKeyID(payload, signer: signer) }
            return try signer.sign(payload: payload, type: "JWT")
        case .rs256:
            return try keys.rsa.sign(payload: payload, type: "JWT")
        case .es256:
            return try keys.ec.sign(payload: payload, type: "JWT")
        case .badSignature:
            let token = behaviour.singleKeyWithoutKeyID
                ? try Self.signWithoutKeyID(payload, signer: keys.rsa) : try keys.rsa.sign(payload: payload, type: "JWT")
            return Self.corruptSignature(token)
        case .unknownKeyID:
            return try JWSSigner(key: keys.unpublished, keyID: "unpublished-kid", algorithm: .rs256).sign(payload: payload, type: "JWT")
        case .forgedWithPublishedKeyID:
            return try JWSSigner(key: keys.unpublished, keyID: keys.rsa.keyID, algorithm: .rs256).sign(payload: payload, type: "JWT")
        case .algorithmNone:
            let header: JSONValue = ["alg": "none", "kid": .string(keys.rsa.keyID), "typ": "JWT"]
            return Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload) + "."
        case .hs256:
            let header: JSONValue = ["alg": "HS256", "kid": .string(keys.rsa.keyID), "typ": "JWT"]
            let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload)
            let secret = keys.rsa.key.publicKey.spkiDER
            return input + "." + Base64URL.encode(HMAC.sha256(key: secret, message: Array(input.utf8)))
        }
    }

    /// A JWS whose header names no key: `{"alg":…,"typ":"JWT"}`.
    static func signWithoutKeyID(_ payload: [UInt8], signer: JWSSigner) throws -> String {
        let header: JSONValue = ["alg": .string(signer.algorithm.rawValue), "typ": "JWT"]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload)
        return input + "." + Base64URL.encode(try signer.key.sign(Array(input.utf8), algorithm: signer.algorithm))
    }

    /// Flips bits in the middle of the signature part.
    static func corruptSignature(_ token: String) -> String {
        guard let dot = token.lastIndex(of: ".") else { return token }
        var signature = Base64URL.decode(token[token.index(after: dot)...]) ?? []
        if !signature.isEmpty { signature[signature.count / 2] ^= 0x5A }
        return String(token[..<dot]) + "." + Base64URL.encode(signature)
    }
}

extension MockProvider {
    /// The provider's clock plus `offset` seconds (for `iat`/`exp` edits in tests).
    public func issuedAt(_ offset: TimeInterval) -> Date { clock().addingTimeInterval(offset) }
}
