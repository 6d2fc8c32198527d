import Foundation

/// An API's RFC 9470 step-up challenge: `WWW-Authenticate: Bearer
/// error="insufficient_user_authentication", acr_values="…", max_age="…"`. Sign in again with
/// `authorizationParameters` (`SignInClient.signIn(with:stepUp:…)` does), and call the API with
/// the new access token.
public struct StepUpChallenge: Sendable, Equatable {
    /// The acceptable `acr` values, in the API's order of preference.
    public let acrValues: [String]
    /// The most seconds since the user authenticated, if the API set one.
    public let maxAge: Int?
    /// The API's `error_description`, if any (for logs; not for the user).
    public let errorDescription: String?

    /// Reads a `WWW-Authenticate` header value; nil unless it is a Bearer challenge with
    /// `error="insufficient_user_authentication"` (RFC 9470 §3) asking for `acr_values` or
    /// `max_age` (a non-negative integer). Parameter names are case-insensitive (RFC 9110 §11.2).
    public init?(wwwAuthenticate header: String) {
        guard let parameters = Self.bearerParameters(header),
              parameters["error"] == "insufficient_user_authentication" else { return nil }
        let acrValues = (parameters["acr_values"] ?? "").split(separator: " ").map(String.init)
        var maxAge: Int?
        if let text = parameters["max_age"] {
            guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text) else {
                return nil
            }
            maxAge = value
        }
        guard !acrValues.isEmpty || maxAge != nil else { return nil }
        self.acrValues = acrValues
        self.maxAge = maxAge
        self.errorDescription = parameters["error_description"]
    }

    /// The authorization request parameters that ask for what the API wants (OpenID Connect
    /// Core §3.1.2.1 `acr_values` and `max_age`), for `SignInClient.beginSignIn(extraParameters:)`.
    public var authorizationParameters: [(String, String)] {
        var pairs: [(String, String)] = []
        if !acrValues.isEmpty { pairs.append(("acr_values", acrValues.joined(separator: " "))) }
        if let maxAge { pairs.append(("max_age", String(maxAge))) }
        return pairs
    }

    /// The auth-params of the first `Bearer` challenge (RFC 9110 §11.6.1): `name=token` or
    /// `name="quoted string"`, comma separated; nil when there is none or it does not parse.
    static func bearerParameters(_ header: String) -> [String: String]? {
        var rest = Substring(header)
        rest = rest.drop { $0 == " " }
        guard rest.prefix(6).lowercased() == "bearer" else { return nil }
        rest = rest.dropFirst(6)
        guard rest.isEmpty || rest.first == " " else { return nil }
        var parameters: [String: String] = [:]
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            if rest.isEmpty { return parameters }
            let name = rest.prefix { $0 != "=" && $0 != " " && $0 != "," }
            rest = rest.dropFirst(name.count).drop { $0 == " " }
            // A following challenge (`, Basic realm=…`) ends this one.
            guard rest.first == "=", !name.isEmpty else { return parameters }
            rest = rest.dropFirst().drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first else { return nil }
                        value.append(escaped)
                        rest = rest.dropFirst()
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { return nil }
            } else {
                let token = rest.prefix { $0 != "," && $0 != " " }
                value = String(token)
                rest = rest.dropFirst(token.count)
            }
            let key = name.lowercased()
            guard parameters[key] == nil else { return nil }   // a repeated parameter is ambiguous
            parameters[key] = value
        }
    }
}

extension SignInClient {
    /// The desktop flow again for an API's step-up challenge: the same sign-in with its
    /// `acr_values` and `max_age` (RFC 9470 §4), so the new tokens meet what the API asked.
    public func signIn(with listener: LoopbackListener, stepUp challenge: StepUpChallenge, timeout: TimeInterval = 300,
                       open: @Sendable (URL) -> Void) async throws(SignInError) -> AuthState {
        try await signIn(with: listener, timeout: timeout, extraParameters: challenge.authorizationParameters, open: open)
    }

    /// Starts a sign-in for an API's step-up challenge (for apps that deliver the callback
    /// themselves, e.g. through `ASWebAuthenticationSession`).
    public func beginSignIn(redirectURI: String? = nil, stepUp challenge: StepUpChallenge) throws(SignInError) -> SignInRequest {
        try beginSignIn(redirectURI: redirectURI, extraParameters: challenge.authorizationParameters)
    }
}
