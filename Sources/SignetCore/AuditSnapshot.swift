import Foundation
import SignetJOSE
import SignetStore

/// What an admin change records as `before` and `after` in its audit event: the record's settings
/// with every secret redacted (a client's secret hash and salt become `"secret": "[redacted]"` or
/// are absent; a user's email and password hash are never included, only whether a password is set).
public enum AuditSnapshot {
    /// The placeholder for a secret that exists.
    public static let redacted = JSONValue.string("[redacted]")

    /// A client's registration, without its secret.
    public static func client(_ record: ClientRecord) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(record.id), "name": .string(record.name), "public": .bool(record.isPublic),
            "first_party": .bool(record.firstParty),
            "redirect_uris": .array(record.redirectURIs.map(JSONValue.string)),
            "post_logout_redirect_uris": .array(record.postLogoutRedirectURIs.map(JSONValue.string)),
            "scopes": .array(record.allowedScopes.map(JSONValue.string)),
            "grant_types": .array(record.grantTypes.map(JSONValue.string)),
            "token_endpoint_auth_method": .string(record.tokenEndpointAuthMethod),
            "id_token_alg": .string(record.idTokenAlgorithm), "allow_headless": .bool(record.allowHeadless),
            "resources": .array(record.allowedResources.map(JSONValue.string)),
        ]
        if record.secretHash != nil { members["secret"] = redacted }
        return .object(members)
    }

    /// A user's state, without the email, the name or the password hash.
    public static func user(_ record: UserRecord) -> JSONValue {
        .object([
            "id": .string(record.id), "email_verified": .bool(record.emailVerified),
            "has_password": .bool(record.passwordHash != nil), "disabled": .bool(record.disabledAt != nil),
        ])
    }

    /// A signing key's public facts.
    public static func key(_ record: SigningKeyRecord) -> JSONValue {
        var members: [String: JSONValue] = ["kid": .string(record.id), "alg": .string(record.algorithm),
                                            "activates_at": .string(AuditEvent.timestamp(record.activatesAt))]
        if let retired = record.retiredAt { members["retired_at"] = .string(AuditEvent.timestamp(retired)) }
        return .object(members)
    }
}
