import Foundation
import SignetMacros

/// An authorization code as stored: only its keyed hash, the terms of the grant family it starts,
/// and what the token endpoint must check. Reads of `terms`' fields go through (`code.clientID`).
@MemberwiseInit
@dynamicMemberLookup
public struct AuthorizationCodeRecord: Sendable, Equatable {
    /// Keyed hash of the code.
    public var codeHash: [UInt8]
    /// The grant family every token issued from this code belongs to; created by the caller.
    public var grantID: String
    /// What the authorization granted; the family the code starts keeps it.
    public var terms: GrantTerms
    /// The exact redirect URI of the request.
    public var redirectURI: String
    /// PKCE S256 challenge, if the request carried one.
    public var codeChallenge: String? = nil
    /// OIDC nonce, if the request carried one.
    public var nonce: String? = nil
    /// When the code was issued.
    public var createdAt: Date
    /// When the code expires (5 minutes after issue by default).
    public var expiresAt: Date
    /// When the code was redeemed, or nil.
    public var consumedAt: Date? = nil

    /// A field of `terms`, read or written.
    public subscript<Value>(dynamicMember field: WritableKeyPath<GrantTerms, Value>) -> Value {
        get { terms[keyPath: field] }
        set { terms[keyPath: field] = newValue }
    }
}
