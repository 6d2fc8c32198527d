import Foundation
import SignetMacros

/// What one authorization granted: to which client, for which user, with which scope and
/// audiences, and how and when the user signed in. The code carries it to the token endpoint
/// (`AuthorizationCodeRecord.terms`), and the grant family the code starts keeps it
/// (`GrantRecord.terms`), so the two cannot disagree on a field.
@MemberwiseInit
public struct GrantTerms: Sendable, Equatable {
    /// The client.
    public var clientID: String
    /// The user (`sub`).
    public var userID: String
    /// Granted scope, space separated; a refresh may narrow it for its token, never widen it.
    public var scope: String
    /// RFC 8707 resources (the access tokens' audiences); empty: the issuer. A refresh may narrow
    /// them, never widen them (RFC 8707 §2).
    public var resources: [String] = []
    /// The authentication methods of the sign-in (`amr`, RFC 8176 values), carried into the ID
    /// tokens of the code and of every refresh.
    public var amr: [String] = []
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// The SSO session the authorization came from (`sid`), if any.
    public var sessionID: String? = nil
    /// The organization the authorization chose (scope `organization`), or nil: the family's
    /// tokens carry its claims while the user is still a member.
    public var organizationID: String? = nil
}
