import Foundation
import SignetCrypto
import SignetJOSE
import SignetWire

/// A client of one OAuth token endpoint: authorization-code exchange (with PKCE), refresh,
/// token exchange or any other grant, and revocation (RFC 7009).
public struct TokenClient: Sendable {
    /// The token endpoint.
    public let tokenEndpoint: URL
    /// The client id.
    public let clientID: String
    /// How the client authenticates.
    public let authentication: ClientAuthentication
    /// The outbound HTTP client.
    public let http: OutboundHTTP

    /// Creates a client.
    public init(tokenEndpoint: URL, clientID: String, authentication: ClientAuthentication = .none, http: OutboundHTTP) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.authentication = authentication
        self.http = http
    }

    /// `grant_type=authorization_code` (RFC 6749 §4.1.3) with the PKCE `code_verifier` (RFC 7636 §4.5).
    public func exchangeCode(_ code: String, redirectURI: String, codeVerifier: String?,
                             extra: [(String, String)] = []) async throws(TokenClientError) -> TokenResponse {
        var pairs = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)]
        if let codeVerifier { pairs.append(("code_verifier", codeVerifier)) }
        return try await requestTokens(pairs + extra)
    }

    /// `grant_type=refresh_token` (RFC 6749 §6), optionally narrowing `scope` and naming the
    /// `resource` the access token is for (RFC 8707 §2.2).
    public func refresh(_ refreshToken: String, scope: String? = nil, resource: String? = nil) async throws(TokenClientError) -> TokenResponse {
        var pairs = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scope { pairs.append(("scope", scope)) }
        if let resource { pairs.append(("resource", resource)) }
        return try await requestTokens(pairs)
    }

    /// Posts `pairs` (plus client authentication) and decodes a token response. A missing
    /// `expires_in` reads as 0 (RFC 6749 makes it optional; GitHub omits it).
    public func requestTokens(_ pairs: [(String, String)]) async throws(TokenClientError) -> TokenResponse {
        let (object, status) = try await requestJSON(pairs)
        guard let accessToken = object["access_token"]?.stringValue, !accessToken.isEmpty,
              let tokenType = object["token_type"]?.stringValue else { throw .malformedResponse(status: status) }
        let expiresIn: Int
        switch object["expires_in"] {
        case nil: expiresIn = 0
        case let value?:
            guard let seconds = value.intValue ?? value.stringValue.flatMap({ Int64($0) }) else {
                throw .malformedResponse(status: status)
            }
            expiresIn = Int(clamping: seconds)
        }
        return TokenResponse(accessToken: accessToken, tokenType: tokenType, expiresIn: expiresIn,
                             refreshToken: object["refresh_token"]?.stringValue, idToken: object["id_token"]?.stringValue,
                             scope: object["scope"]?.stringValue, issuedTokenType: object["issued_token_type"]?.stringValue)
    }

    /// Posts `pairs` (plus client authentication) and returns the JSON object of a 2xx answer.
    ///
    /// - Throws: `.oauth` for an error body, `.malformedResponse` for anything that is not a JSON
    ///   object, `.transport` for HTTP failures.
    public func requestJSON(_ pairs: [(String, String)]) async throws(TokenClientError) -> ([String: JSONValue], status: Int) {
        let answer: (status: Int, object: [String: JSONValue]?)
        do {
            answer = try await post(pairs, to: tokenEndpoint) { (200..<300).contains($0) }
        } catch .transport(.badStatus(401)) {
            // RFC 6749 §5.2: a 401 from the token endpoint is invalid_client (FoundationNetworking
            // on Linux drops the body of a 401 that carries a challenge).
            throw .oauth(OAuthErrorBody(error: "invalid_client"), status: 401)
        }
        guard let object = answer.object else { throw .malformedResponse(status: answer.status) }
        return (object, answer.status)
    }

    /// RFC 7009 revocation at `endpoint`: 200 is success (also for unknown tokens).
    public func revoke(_ token: String, tokenTypeHint: String? = nil, endpoint: URL) async throws(TokenClientError) {
        var pairs = [("token", token)]
        if let tokenTypeHint { pairs.append(("token_type_hint", tokenTypeHint)) }
        _ = try await post(pairs, to: endpoint) { $0 == 200 }
    }

    /// Posts `pairs` (plus client authentication) to `endpoint`: the status and JSON object (if
    /// the body is one) of an answer whose status is `accepted`.
    ///
    /// - Throws: `.oauth` for another status with an error body (RFC 6749 §5.2; RFC 7009 §2.2.1),
    ///   `.transport(.badStatus)` for one without, `.transport` for HTTP failures.
    func post(_ pairs: [(String, String)], to endpoint: URL,
              accepting accepted: (Int) -> Bool) async throws(TokenClientError) -> (status: Int, object: [String: JSONValue]?) {
        let (form, headers) = authenticated(pairs)
        let response: OutboundResponse
        do {
            response = try await http.postForm(endpoint, form, headers: headers)
        } catch {
            throw .transport(error)
        }
        let object = try? JSONValue.parse(response.body, maximumDepth: 16).objectValue
        guard accepted(response.status) else {
            if let body = object.flatMap(OAuthErrorBody.init(json:)) { throw .oauth(body, status: response.status) }
            throw .transport(.badStatus(response.status))
        }
        return (response.status, object)
    }

    /// Adds client authentication to a form.
    func authenticated(_ pairs: [(String, String)]) -> ([(String, String)], [String: String]) {
        var headers = ["Accept": "application/json"]
        switch authentication {
        case .none:
            return (pairs + [("client_id", clientID)], headers)
        case .post(let secret):
            return (pairs + [("client_id", clientID), ("client_secret", secret)], headers)
        case .basic(let secret):
            headers["Authorization"] = ClientAuthentication.basicAuthorization(clientID: clientID, secret: secret)
            return (pairs, headers)
        }
    }
}
