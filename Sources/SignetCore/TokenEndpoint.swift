import Foundation
import SignetWire

/// `POST /token` (RFC 6749 §3.2): authenticates the client, then dispatches by `grant_type` to
/// one handler per grant, each in its own file.
///
/// The token-exchange grant (native ID-token sign-in) verifies a provider token against keys
/// fetched over the network, so it runs only through `handleAsync`, and only when a
/// `NativeIDTokenVerifier` was given.
public struct TokenEndpoint: Sendable {
    let server: AuthorizationServer
    let authenticator: ClientAuthenticator
    let nativeSignIn: (any NativeIDTokenVerifier)?

    /// Creates the endpoint; without `nativeSignIn` the token-exchange grant is unsupported.
    public init(server: AuthorizationServer, nativeSignIn: (any NativeIDTokenVerifier)? = nil) {
        self.server = server
        self.authenticator = ClientAuthenticator(clients: server.clients)
        self.nativeSignIn = nativeSignIn
    }

    /// Whether the request names the token-exchange grant (which needs `handleAsync`).
    public static func isTokenExchange(_ parameters: RequestParameters) -> Bool {
        (try? parameters.single("grant_type")) == GrantType.tokenExchange.rawValue
    }

    /// Runs a token request of a grant that needs no network. Errors are `OAuthError`s for the
    /// one error mapping to render.
    public func handle(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) -> TokenResponse {
        let (grant, client) = try authenticate(parameters, authorization: authorization)
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

    /// Runs any token request, including the token exchange.
    public func handleAsync(_ parameters: RequestParameters, authorization: String?) async throws(OAuthError) -> TokenResponse {
        guard Self.isTokenExchange(parameters) else { return try handle(parameters, authorization: authorization) }
        let (_, client) = try authenticate(parameters, authorization: authorization)
        guard let nativeSignIn else { throw OAuthError(.unsupportedGrantType, "This grant type is not supported.") }
        return try await TokenExchangeGrant(server: server, verifier: nativeSignIn).handle(parameters, client: client)
    }

    /// The grant type, the authenticated client, and whether it may use the grant.
    private func authenticate(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) -> (GrantType, Client) {
        guard let grantName = try parameters.single("grant_type") else {
            throw OAuthError.invalidRequest("The grant_type parameter is missing.")
        }
        guard let grant = GrantType(rawValue: grantName), grant != .tokenExchange || nativeSignIn != nil else {
            throw OAuthError(.unsupportedGrantType, "This grant type is not supported.")
        }
        let client = try authenticator.authenticate(parameters, authorization: authorization)
        guard client.grantTypes.contains(grant) else {
            throw OAuthError(.unauthorizedClient, "The client may not use this grant type.")
        }
        return (grant, client)
    }
}
