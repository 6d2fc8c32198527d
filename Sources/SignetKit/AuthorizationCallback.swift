import Foundation
import SignetCrypto

/// A validated authorization response: the code, ready to be exchanged.
public struct AuthorizationCallback: Sendable, CustomStringConvertible {
    /// The authorization code. Secret.
    public let code: String
    /// The `iss` parameter, when the server sent one.
    public let issuer: String?

    /// Redacted.
    public var description: String { "AuthorizationCallback(code: redacted, iss: \(issuer ?? "none"))" }

    /// Validates a callback URL against the pending sign-in, in this order:
    /// 1. the scheme, host, port and path equal those of the redirect URI sent (the port came from
    ///    the loopback listener, so "any port" was already applied when the request was made);
    /// 2. the query parses without repeats;
    /// 3. `state` is present and equal (constant-time) — a missing state is never a match;
    /// 4. `iss` equals the issuer when present, and is required when the server advertises
    ///    `authorization_response_iss_parameter_supported` (RFC 9207 §2.4);
    /// 5. an `error` becomes `.authorizationError` with its description and URI;
    /// 6. a `code` is present.
    public static func validate(_ url: URL, pending: PendingSignIn, issuer: String,
                                issuerParameterRequired: Bool) throws(SignInError) -> AuthorizationCallback {
        let (base, query) = split(url.absoluteString)
        guard base == pending.redirectURI else {
            throw .unexpectedRedirect(mismatch(base, pending.redirectURI))
        }
        guard let parameters = QueryEncoding.decode(query ?? "") else { throw .malformedCallback }
        guard let state = parameters["state"] else { throw .missingState }
        guard constantTimeEqual(state, pending.state) else { throw .stateMismatch }
        // RFC 9207 §2.4: compare iss before looking at code or error.
        if let iss = parameters["iss"] {
            guard iss == issuer else { throw .issuerParameterMismatch }
        } else if issuerParameterRequired {
            throw .missingIssuer
        }
        if let error = parameters["error"] {
            throw .authorizationError(code: error, description: parameters["error_description"], uri: parameters["error_uri"])
        }
        guard let code = parameters["code"], !code.isEmpty else { throw .missingCode }
        return AuthorizationCallback(code: code, issuer: parameters["iss"])
    }

    /// Whether `url` is addressed to the pending sign-in (same address, same state): the cheap
    /// check a loopback listener uses to pick the one callback it accepts.
    public static func isAddressed(_ url: URL, to pending: PendingSignIn) -> Bool {
        let (base, query) = split(url.absoluteString)
        guard base == pending.redirectURI, let parameters = QueryEncoding.decode(query ?? ""),
              let state = parameters["state"] else { return false }
        return constantTimeEqual(state, pending.state)
    }

    static func split(_ text: String) -> (base: String, query: String?) {
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
    }

    /// Names which part differs, without echoing query values.
    static func mismatch(_ got: String, _ expected: String) -> String {
        guard let a = URLComponents(string: got), let b = URLComponents(string: expected) else { return "not a URL" }
        if a.scheme != b.scheme { return "scheme \(a.scheme ?? "none"), expected \(b.scheme ?? "none")" }
        if a.host != b.host { return "host \(a.host ?? "none"), expected \(b.host ?? "none")" }
        if a.port != b.port { return "port \(a.port.map(String.init) ?? "none"), expected \(b.port.map(String.init) ?? "none")" }
        if a.path != b.path { return "path \(a.path), expected \(b.path)" }
        return "address differs from the redirect URI"
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        constantTimeEquals(Array(a.utf8), Array(b.utf8))
    }
}
