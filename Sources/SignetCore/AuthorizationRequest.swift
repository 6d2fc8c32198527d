import Foundation
import SignetWire

/// A checked authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1, RFC 7636,
/// RFC 8707), as kept while the user signs in.
public struct AuthorizationRequest: Sendable, Codable, Equatable {
    /// `client_id`.
    public var clientID: String
    /// The redirect URI exactly as sent (it must be sent again, identically, at the token endpoint).
    public var redirectURI: String
    /// The requested scope.
    public var scope: String
    /// `state`, returned unchanged.
    public var state: String?
    /// `nonce`, copied into the ID token.
    public var nonce: String?
    /// The S256 `code_challenge`.
    public var codeChallenge: String?
    /// `prompt` values.
    public var prompt: [String]
    /// `max_age` in seconds.
    public var maxAge: Int?
    /// `login_hint`, used to prefill the email field.
    public var loginHint: String?
    /// The subject named by a valid `id_token_hint`.
    public var hintedSubject: String?
    /// RFC 8707 `resource`s, space separated (a URI has no spaces), or nil: the access token's
    /// audiences.
    public var resource: String?
    /// `acr_values`, space separated as sent (OpenID Connect Core §3.1.2.1), or nil.
    public var acrValues: String?
    /// `organization`: the id or slug of the organization the request asks the claims of (scope
    /// `organization`), or the one the user picked; nil: none named.
    public var organization: String?

    /// The RFC 8707 resources, in request order.
    public var resources: [String] { resource.map { $0.split(separator: " ").map(String.init) } ?? [] }

    /// The `acr_values`, in order of preference.
    public var acrValueList: [String] { acrValues.map { $0.split(separator: " ").map(String.init) } ?? [] }

    /// Parameters this endpoint understands; others are ignored as RFC 6749 §3.1 requires.
    static let known = ["client_id", "redirect_uri", "response_type", "scope", "state", "nonce", "code_challenge",
                        "code_challenge_method", "prompt", "max_age", "login_hint", "id_token_hint", "resource",
                        "response_mode", "request", "request_uri", "registration", "display", "ui_locales", "claims",
                        "acr_values", "organization"]

    /// Longest value accepted for free-text parameters, to bound what is stored.
    static let maximumParameterLength = 2048

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", redirectURI = "redirect_uri", scope, state, nonce
        case codeChallenge = "code_challenge", prompt, maxAge = "max_age", loginHint = "login_hint"
        case hintedSubject = "hinted_subject", resource, acrValues = "acr_values", organization
    }

    /// The prompt set contains `value`.
    public func prompts(_ value: Prompt) -> Bool { prompt.contains(value.rawValue) }

    /// The requested scope, parsed.
    public var parsedScope: Scope { (try? Scope(parsing: scope)) ?? Scope([String]()) }
}
