/// Why a federated sign-in could not complete. `publicMessage` is safe to show the user;
/// `description` carries the private detail for the log (never a token, code or email).
public enum FederationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection is configured wrongly (key unreadable, no token endpoint, ...).
    case misconfigured(String)
    /// The provider could not be reached or answered with something unusable (timeout, size,
    /// redirect, bad status, malformed JSON or discovery document).
    case upstreamUnavailable(String)
    /// The provider refused the code exchange (an OAuth error body such as `invalid_grant`).
    case upstreamRejected(String)
    /// The ID token failed a check (signature, iss, aud, azp, exp, nonce, ...).
    case invalidIDToken(String)
    /// The provider gave no usable subject or user id.
    case missingSubject
    /// The provider did not say the email is verified (and the connection needs a verified one).
    case emailNotVerified
    /// The authorization response's `iss` is missing (the provider advertises it) or names
    /// another issuer (RFC 9207 §2.4): possibly a mix-up attack.
    case wrongResponseIssuer
    /// The connection only accepts some email domains (or a Google hosted domain), and this is not one.
    case domainNotAllowed

    /// A message for the user's page: what happened, without internals.
    public var publicMessage: String {
        switch self {
        case .misconfigured: "This sign-in option is not set up correctly. Please try another way to sign in."
        case .upstreamUnavailable: "The identity provider did not answer properly. Please try again in a moment."
        case .upstreamRejected: "The identity provider did not accept the sign-in. Please try again."
        case .invalidIDToken, .missingSubject, .wrongResponseIssuer: "The identity provider's answer could not be verified, so you were not signed in."
        case .emailNotVerified: "Your email address is not verified with the identity provider, so you were not signed in."
        case .domainNotAllowed: "Accounts from your email domain cannot sign in with this provider."
        }
    }

    /// The private detail, for the log.
    public var description: String {
        switch self {
        case .misconfigured(let detail): "misconfigured: \(detail)"
        case .upstreamUnavailable(let detail): "upstream unavailable: \(detail)"
        case .upstreamRejected(let detail): "upstream rejected: \(detail)"
        case .invalidIDToken(let detail): "invalid ID token: \(detail)"
        case .missingSubject: "missing subject"
        case .wrongResponseIssuer: "authorization response iss missing or wrong"
        case .emailNotVerified: "email not verified"
        case .domainNotAllowed: "email domain not allowed"
        }
    }
}
