/// Why a request to a protected resource was refused, as RFC 6750 §3 describes it: the HTTP
/// status and the `WWW-Authenticate` header to send. Descriptions never contain the token.
public struct BearerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The RFC 6750 §3.1 error codes.
    public enum Code: String, Sendable {
        /// No token, or a malformed request (400; with no token at all, no error code is sent).
        case invalidRequest = "invalid_request"
        /// Expired, revoked, malformed, wrong issuer or audience, bad signature (401).
        case invalidToken = "invalid_token"
        /// The token lacks a required scope (403).
        case insufficientScope = "insufficient_scope"
        /// The token could not be checked: the issuer's keys cannot be fetched (503). Not one of
        /// RFC 6750's codes (the token is not at fault, so it is not `invalid_token`, which would
        /// send the client to sign in again); the challenge names no error, the body does.
        case temporarilyUnavailable = "temporarily_unavailable"
        /// RFC 9470 §3: the token is fine but the user's authentication is not strong or recent
        /// enough (401); the challenge says what would be (`acr_values`, `max_age`).
        case insufficientUserAuthentication = "insufficient_user_authentication"
    }

    /// The error code; nil when the request carried no token at all (RFC 6750 §3.1: then the
    /// response SHOULD NOT include an error code).
    public let code: Code?
    /// Safe to show the client.
    public let errorDescription: String?
    /// For `insufficient_scope`: the scopes needed.
    public let scope: String?
    /// The realm in the challenge.
    public let realm: String?
    /// For `insufficient_user_authentication`: the acceptable `acr` values, space separated (RFC 9470 §3).
    public var acrValues: String?
    /// For `insufficient_user_authentication`: the most seconds since the user authenticated (RFC 9470 §3).
    public var maxAge: Int?

    /// Creates an error.
    public init(_ code: Code?, _ errorDescription: String? = nil, scope: String? = nil, realm: String? = nil) {
        self.code = code
        self.errorDescription = errorDescription
        self.scope = scope
        self.realm = realm
    }

    /// RFC 9470 §3: the user must authenticate with one of `acrValues` and/or within `maxAge`
    /// seconds; the client signs in again with them (SignetKit's `SignInRequest.stepUp`).
    public static func insufficientUserAuthentication(_ errorDescription: String, acrValues: [String] = [], maxAge: Int? = nil,
                                                      realm: String? = nil) -> BearerError {
        var error = BearerError(.insufficientUserAuthentication, errorDescription, realm: realm)
        error.acrValues = acrValues.isEmpty ? nil : acrValues.joined(separator: " ")
        error.maxAge = maxAge
        return error
    }

    /// No `Authorization: Bearer` header.
    public static func missingToken(realm: String? = nil) -> BearerError { BearerError(nil, realm: realm) }

    /// The HTTP status: 401 for a missing or invalid token, 400 for a bad request, 403 for scope,
    /// 503 when the token could not be checked.
    public var status: Int {
        switch code {
        case nil, .invalidToken?, .insufficientUserAuthentication?: 401
        case .invalidRequest?: 400
        case .insufficientScope?: 403
        case .temporarilyUnavailable?: 503
        }
    }

    /// The `WWW-Authenticate` header value, e.g.
    /// `Bearer realm="api", error="invalid_token", error_description="the token has expired"`.
    public var wwwAuthenticate: String {
        var parameters: [String] = []
        if let realm { parameters.append("realm=\"\(Self.quoted(realm))\"") }
        if let code, code != .temporarilyUnavailable { parameters.append("error=\"\(code.rawValue)\"") }
        if let errorDescription, code != nil, code != .temporarilyUnavailable { parameters.append("error_description=\"\(Self.quoted(errorDescription))\"") }
        if let scope, code == .insufficientScope { parameters.append("scope=\"\(Self.quoted(scope))\"") }
        if code == .insufficientUserAuthentication {
            if let acrValues { parameters.append("acr_values=\"\(Self.quoted(acrValues))\"") }
            if let maxAge { parameters.append("max_age=\"\(maxAge)\"") }
        }
        return parameters.isEmpty ? "Bearer" : "Bearer " + parameters.joined(separator: ", ")
    }

    /// The JSON body an API may send with the error (`{"error": …, "error_description": …}`).
    public var jsonBody: String {
        guard let code else { return "{\"error\":\"invalid_request\",\"error_description\":\"an access token is required\"}" }
        var body = "{\"error\":\"\(code.rawValue)\""
        if let errorDescription { body += ",\"error_description\":\"\(Self.quoted(errorDescription))\"" }
        return body + "}"
    }

    /// The code and description.
    public var description: String { "\(code?.rawValue ?? "no token")" + (errorDescription.map { ": \($0)" } ?? "") }

    /// RFC 6750 §3: error_description uses %x20-21 / %x23-5B / %x5D-7E only.
    static func quoted(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value <= 0x7E && $0 != "\"" && $0 != "\\" }))
    }
}
