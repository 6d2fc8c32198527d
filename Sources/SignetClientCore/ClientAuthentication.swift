import Foundation

/// How a `TokenClient` authenticates to the token endpoint (RFC 6749 §2.3.1).
public enum ClientAuthentication: Sendable, CustomStringConvertible {
    /// A public client: `client_id` in the form, no secret.
    case none
    /// HTTP Basic with the form-urlencoded client id and secret.
    case basic(secret: String)
    /// `client_id` and `client_secret` in the form body.
    case post(secret: String)

    /// Never shows the secret.
    public var description: String {
        switch self {
        case .none: "none"
        case .basic: "client_secret_basic(<redacted>)"
        case .post: "client_secret_post(<redacted>)"
        }
    }

    /// The `Authorization` header value of HTTP Basic client authentication: RFC 6749 §2.3.1,
    /// each part form-urlencoded before Base64.
    public static func basicAuthorization(clientID: String, secret: String) -> String {
        let credentials = FormEncoding.encodeComponent(clientID) + ":" + FormEncoding.encodeComponent(secret)
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }
}
