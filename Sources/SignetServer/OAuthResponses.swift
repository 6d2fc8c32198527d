import Foundation
import SignetHTTP
import SignetJOSE
import SignetWire

/// OAuth successes as HTTP: JSON with `Cache-Control: no-store`, the token response, and the
/// redirect to a client carrying `state` and `iss`. Errors are `ErrorRenderer`'s.
enum OAuthResponses {
    /// A JSON success with `Cache-Control: no-store` (RFC 6749 §5.1).
    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse { json(bytes: value.serialized(), status: status) }

    /// A wire type's `Codable` JSON (`TokenResponse`, `ErrorResponse`) with `Cache-Control: no-store`.
    /// Optionals are left out (synthesized `encodeIfPresent`), so no `null` is written. Foundation's
    /// encoder on this toolchain writes a token response in about half the CPU time of building a
    /// `JSONValue` and serializing it (docs/architecture.md, "HTTP").
    static func json(encoding value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            // Unreachable for these types (strings and integers only); a 500, never a partial body.
            Log.error("response not encodable: \(type(of: value))")
            return json(bytes: Array(#"{"error":"server_error"}"#.utf8), status: 500)
        }
        return json(bytes: Array(data), status: status)
    }

    private static func json(bytes: [UInt8], status: Int) -> HTTPResponse {
        var response = HTTPResponse.json(bytes, status: status)
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Pragma", "no-cache")
        return response
    }

    /// The token response (RFC 6749 §5.1): `TokenResponse`'s `Codable` members, written member by
    /// member, the names of its `CodingKeys` (the response of every grant: Foundation's encoder cost about 7 % of a
    /// client_credentials grant's CPU, bench/README.md).
    static func token(_ token: TokenResponse) -> HTTPResponse {
        var object = JSONObjectWriter(capacity: 256 + token.accessToken.utf8.count + (token.idToken?.utf8.count ?? 0))
        object.add("access_token", token.accessToken)
        object.add("token_type", token.tokenType)
        object.add("expires_in", token.expiresIn)
        object.add("refresh_token", token.refreshToken)
        object.add("id_token", token.idToken)
        object.add("scope", token.scope)
        object.add("issued_token_type", token.issuedTokenType)
        return json(bytes: object.finished(), status: 200)
    }

    /// A 303 to the client's verified redirect URI with `parameters` plus `state` and `iss`
    /// (RFC 9207), with the interactive endpoints' hardening headers.
    static func redirect(to redirect: VerifiedRedirect, parameters: [(String, String)], issuer: String) -> HTTPResponse {
        var pairs = parameters
        if let state = redirect.state { pairs.append(("state", state)) }
        pairs.append(("iss", issuer))
        let separator = redirect.uri.contains("?") ? "&" : "?"
        var response = HTTPResponse.redirect(to: redirect.uri + separator + FormEncoding.encode(pairs), status: 303)
        HTMLPage.harden(&response)
        return response
    }
}
