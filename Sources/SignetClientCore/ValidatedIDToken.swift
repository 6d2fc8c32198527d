import Foundation
import SignetJOSE

/// An ID token that passed every check of an `IDTokenValidator`.
public struct ValidatedIDToken: Sendable {
    /// `sub`: the provider's stable user identifier (key accounts on this with the issuer).
    public let subject: String
    /// `iss`.
    public let issuer: String
    /// `aud`, as a list.
    public let audience: [String]
    /// All claims.
    public let claims: JWTClaims
    /// `email`, if present.
    public let email: String?
    /// `email_verified`: a JSON boolean, or the strings "true"/"false" (as Apple sends it); nil
    /// if absent or of any other shape.
    public let emailVerified: Bool?
    /// `nonce`, if present.
    public let nonce: String?
    /// `auth_time`, if present.
    public let authTime: Date?
    /// The key that verified the signature.
    public let keyID: String

    /// Reads the typed members from verified claims.
    init(claims: JWTClaims, keyID: String) {
        self.claims = claims
        self.subject = claims.sub ?? ""
        self.issuer = claims.iss ?? ""
        self.audience = claims.aud ?? []
        self.email = claims["email"]?.stringValue
        self.emailVerified = Self.flexibleBool(claims["email_verified"])
        self.nonce = claims.nonce
        self.authTime = try? claims.numericDate("auth_time")
        self.keyID = keyID
    }

    /// A JSON boolean, or the exact strings "true"/"false" (Apple sends `email_verified` and
    /// `is_private_email` as strings).
    public static func flexibleBool(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let flag)?: flag
        case .string("true")?: true
        case .string("false")?: false
        default: nil
        }
    }
}
