import Foundation
import SignetJOSE
import SignetStore
import SignetWire

/// Token introspection (RFC 7662), for resource servers.
///
/// Who may ask: confidential clients only; a public client cannot authenticate, so it gets
/// `invalid_client` (401), as any unauthenticated caller does. Any confidential client may
/// introspect any access token (resource servers receive tokens issued to other clients, and the
/// JWT's content is readable by its holder anyway); a refresh token only by the client it was
/// issued to (resource servers never see refresh tokens). Anything not active, including a token
/// the caller may not introspect, is `{"active": false}` and nothing more.
public struct IntrospectionEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let verifier: AccessTokenVerifier
    let refreshTokens: any RefreshTokenStore
    let users: any UserStore
    let tokens: OpaqueTokens
    let clock: any Clock
    /// `iss` of refresh token answers.
    let issuer: String

    /// `{"active": false}`.
    public static let inactive: JSONValue = .object(["active": .bool(false)])

    /// Runs an introspection request and returns the response object.
    public func handle(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) -> JSONValue {
        let client = try authenticator.authenticate(parameters, authorization: authorization)
        guard !client.isPublic else {
            throw OAuthError.invalidClient(detail: "public client \(client.id) may not introspect (RFC 7662 §2.1)")
        }
        let token = try parameters.required("token")
        _ = try parameters.single("token_type_hint")
        do {
            if let locator = tokens.refreshLocator(token) {
                return try refreshToken(token, locator, caller: client) ?? Self.inactive
            }
            return try accessToken(token) ?? Self.inactive
        } catch {
            throw OAuthError.serverError(detail: "introspection: \(error)")
        }
    }

    private func accessToken(_ token: String) throws -> JSONValue? {
        guard let jwt = try? verifier.verify(token) else { return nil }
        let claims = jwt.claims
        let now = clock.now
        if let grantID = claims["gid"]?.stringValue {
            guard try refreshTokens.isGrantActive(id: grantID, now: now),
                  let subject = claims.sub, let user = try users.user(id: subject), user.disabledAt == nil
            else { return nil }
        }
        var object: [String: JSONValue] = ["active": .bool(true), "token_type": "Bearer"]
        // RFC 7662 §2.2: further claims of the token may be given; the organization's, as issued.
        for name in ["scope", "client_id", "sub", "exp", "iat", "iss", "aud", "jti"] + OrganizationSelection.claimNames {
            if let value = claims[name] { object[name] = value }
        }
        return .object(object)
    }

    private func refreshToken(_ token: String, _ locator: RefreshLocator, caller: Client) throws -> JSONValue? {
        let now = clock.now
        guard let record = try refreshTokens.refreshToken(hash: tokens.hash(token), grantID: locator.grantID),
              record.rotatedAt == nil, now < record.expiresAt,
              let grant = try refreshTokens.grant(id: record.grantID),
              grant.isActive(at: now), grant.clientID == caller.id,
              let user = try users.user(id: grant.userID), user.disabledAt == nil else { return nil }
        var object: [String: JSONValue] = [
            "active": .bool(true), "token_type": "refresh_token", "client_id": .string(grant.clientID),
            "sub": .string(grant.userID), "iss": .string(issuer),
            "exp": .int(Int64(record.expiresAt.timeIntervalSince1970)),
            "iat": .int(Int64(record.createdAt.timeIntervalSince1970)),
        ]
        if !record.scope.isEmpty { object["scope"] = .string(record.scope) }
        return .object(object)
    }
}

extension IntrospectionEndpoint {
    /// Creates the endpoint.
    public init(server: AuthorizationServer) {
        self.init(authenticator: ClientAuthenticator(clients: server.clients), verifier: AccessTokenVerifier(server: server, audience: nil),
                  refreshTokens: server.storage.refreshTokens, users: server.storage.users, tokens: server.tokens,
                  clock: server.clock, issuer: server.policy.issuer)
    }
}
