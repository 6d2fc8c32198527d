import SignetHTTP
import SignetJOSE
import SignetWire

/// The one mapping from OAuth results and errors to HTTP: status codes, `WWW-Authenticate`,
/// `Cache-Control: no-store`, JSON bodies, and redirects carrying `state` and `iss`.
enum OAuthResponses {
    /// The HTTP status of an error at a direct (non-redirect) endpoint (RFC 6749 §5.2, RFC 6750 §3.1).
    static func status(for code: OAuthErrorCode) -> Int {
        switch code {
        case .invalidClient, .invalidToken: 401
        case .insufficientScope: 403
        case .serverError: 500
        case .temporarilyUnavailable: 503
        default: 400
        }
    }

    /// A JSON error from the token, revocation or introspection endpoint. `invalid_client` gets
    /// 401 with a `WWW-Authenticate` challenge for the scheme the client tried (RFC 6749 §5.2).
    static func tokenError(_ error: OAuthError, basicAttempted: Bool = true) -> HTTPResponse {
        if error.code == .serverError { Log.error("token endpoint: \(error)") }
        var response = json(ErrorBody.object(error), status: status(for: error.code))
        if error.code == .invalidClient {
            response.headers.set("WWW-Authenticate", #"Basic realm="signet", charset="UTF-8""#)
        }
        return response
    }

    /// A JSON success with `Cache-Control: no-store` (RFC 6749 §5.1).
    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse.json(value.serialized(), status: status)
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Pragma", "no-cache")
        return response
    }

    /// The token response as JSON.
    static func token(_ token: TokenResponse) -> HTTPResponse {
        var object: [String: JSONValue] = [
            "access_token": .string(token.accessToken),
            "token_type": .string(token.tokenType),
            "expires_in": .int(Int64(token.expiresIn)),
        ]
        if let refresh = token.refreshToken { object["refresh_token"] = .string(refresh) }
        if let id = token.idToken { object["id_token"] = .string(id) }
        if let scope = token.scope { object["scope"] = .string(scope) }
        if let issued = token.issuedTokenType { object["issued_token_type"] = .string(issued) }
        return json(.object(object))
    }

    /// A bearer-token error at a protected resource (RFC 6750 §3): the status and a
    /// `WWW-Authenticate: Bearer` challenge carrying the error code.
    static func bearerError(_ error: OAuthError?) -> HTTPResponse {
        guard let error else {
            var response = HTTPResponse.empty(status: 401)
            response.headers.set("WWW-Authenticate", #"Bearer realm="signet""#)
            response.headers.set("Cache-Control", "no-store")
            return response
        }
        var challenge = #"Bearer realm="signet", error="\#(error.code.rawValue)""#
        if let description = error.publicDescription { challenge += #", error_description="\#(description)""# }
        var response = json(ErrorBody.object(error), status: status(for: error.code))
        response.headers.set("WWW-Authenticate", challenge)
        return response
    }

    /// A 303 to the client's verified redirect URI with the given parameters plus `state` and
    /// `iss` (RFC 9207). Only ever called with a redirect URI already matched to the client.
    static func redirect(to redirectURI: String, parameters: [(String, String)], state: String?, issuer: String) -> HTTPResponse {
        var pairs = parameters
        if let state { pairs.append(("state", state)) }
        pairs.append(("iss", issuer))
        let separator = redirectURI.contains("?") ? "&" : "?"
        var response = HTTPResponse.redirect(to: redirectURI + separator + FormEncoding.encode(pairs), status: 303)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// An authorization error sent back to the verified redirect URI.
    static func redirectError(_ error: OAuthError, redirectURI: String, state: String?, issuer: String) -> HTTPResponse {
        if error.code == .serverError { Log.error("authorize: \(error)") }
        var parameters = [("error", error.code.rawValue)]
        if let description = error.publicDescription { parameters.append(("error_description", description)) }
        return redirect(to: redirectURI, parameters: parameters, state: state, issuer: issuer)
    }
}

/// The RFC 6749 §5.2 error body.
enum ErrorBody {
    static func object(_ error: OAuthError) -> JSONValue {
        var object: [String: JSONValue] = ["error": .string(error.code.rawValue)]
        if let description = error.publicDescription { object["error_description"] = .string(description) }
        return .object(object)
    }
}
