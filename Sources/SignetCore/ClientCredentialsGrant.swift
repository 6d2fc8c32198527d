import Foundation
import SignetWire

/// The client credentials grant (RFC 6749 §4.4), for confidential clients acting for themselves.
struct ClientCredentialsGrant: GrantHandler {
    /// Access tokens.
    let issuer: TokenIssuer

    var grantType: GrantType { .clientCredentials }
    let parameters = ["scope", "resource"]

    func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse {
        try oauthErrors { try issue(parameters, client: client) }
    }

    private func issue(_ parameters: RequestParameters, client: Client) throws -> TokenResponse {
        guard !client.isPublic else { throw OAuthError(.unauthorizedClient, "Public clients cannot use client_credentials.") }
        // User-centric scopes mean nothing without a user.
        let serviceScope = Scope(client.allowedScope.tokens.filter {
            ![Scope.openID, Scope.offlineAccess, Scope.profile, Scope.email].contains($0)
        })
        var scope = serviceScope
        if let text = try parameters.single("scope") {
            let requested = try Scope(parsing: text)
            guard requested.isSubset(of: serviceScope) else {
                throw OAuthError(.invalidScope, "The requested scope is not allowed for this client.")
            }
            scope = requested
        }
        let resources = try ResourceIndicator.requested(parameters, client: client)
        let access = try issuer.accessToken(.init(
            subject: client.id, clientID: client.id, scope: scope, audience: resources.isEmpty ? [issuer.policy.issuer] : resources,
            grantID: nil, authTime: nil, lifetime: client.lifetimes.accessToken))
        return TokenResponse(accessToken: access.token, expiresIn: access.expiresIn, scope: scope.isEmpty ? nil : scope.description)
    }
}

extension ClientCredentialsGrant {
    /// Takes its parts from the server.
    init(server: AuthorizationServer) { self.init(issuer: server.issuer) }
}
