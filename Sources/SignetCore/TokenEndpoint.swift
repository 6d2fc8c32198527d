import Foundation
import SignetWire

/// `POST /token` (RFC 6749 §3.2): authenticates the client, then dispatches by `grant_type` to
/// one handler per grant, each in its own file.
public struct TokenEndpoint: Sendable {
    let server: AuthorizationServer
    let authenticator: ClientAuthenticator

    /// Creates the endpoint.
    public init(server: AuthorizationServer) {
        self.server = server
        self.authenticator = ClientAuthenticator(clients: server.clients)
    }

    /// Runs a token request. Errors are `OAuthError`s for the one error mapping to render.
    public func handle(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) -> TokenResponse {
        guard let grantName = try parameters.single("grant_type") else {
            throw OAuthError.invalidRequest("The grant_type parameter is missing.")
        }
        guard let grant = GrantType(rawValue: grantName), grant != .tokenExchange else {
            throw OAuthError(.unsupportedGrantType, "This grant type is not supported.")
        }
        let client = try authenticator.authenticate(parameters, authorization: authorization)
        guard client.grantTypes.contains(grant) else {
            throw OAuthError(.unauthorizedClient, "The client may not use this grant type.")
        }
        do {
            switch grant {
            case .authorizationCode: return try AuthorizationCodeGrant(server: server).handle(parameters, client: client)
            case .refreshToken: return try RefreshTokenGrant(server: server).handle(parameters, client: client)
            case .clientCredentials: return try ClientCredentialsGrant(server: server).handle(parameters, client: client)
            case .tokenExchange: throw OAuthError(.unsupportedGrantType, "This grant type is not supported.")
            }
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError.serverError(detail: "\(grant.rawValue): \(error)")
        }
    }
}
