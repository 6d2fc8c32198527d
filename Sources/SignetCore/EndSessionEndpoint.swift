import SignetWire

/// The checks of the end-session endpoint (OpenID Connect RP-Initiated Logout 1.0 §2–§3).
///
/// Every failure is shown as a page, never redirected: a post-logout redirect URI is used only
/// when it exactly equals one registered for the client that the `id_token_hint` or `client_id`
/// names.
public struct EndSessionEndpoint: Sendable {
    let clients: ClientRegistry
    /// Verifies `id_token_hint`.
    let ownTokens: OwnTokenVerification

    /// Checks the parameters of a logout request.
    public func validate(_ parameters: RequestParameters) throws(OAuthError) -> EndSessionRequest {
        if let repeated = parameters.repeatedNames.first(where: ["id_token_hint", "client_id", "post_logout_redirect_uri", "state"].contains) {
            throw OAuthError.invalidRequest("The \(repeated) parameter is repeated.")
        }
        var hint: IDTokenHint?
        if let token = try parameters.single("id_token_hint") {
            guard let verified = ownTokens.idTokenHint(token) else {
                throw OAuthError.invalidRequest("The id_token_hint is not a valid ID token issued by this server.")
            }
            hint = verified
        }
        var clientID = try parameters.single("client_id")
        if let hint {
            if let clientID {
                guard hint.audiences.contains(clientID) else {
                    throw OAuthError.invalidRequest("The id_token_hint was not issued to this client_id.")
                }
            } else if hint.audiences.count == 1 {
                clientID = hint.audiences[0]
            }
        }
        var client: Client?
        if let clientID {
            let found: Client?
            do { found = try clients.client(id: clientID) } catch {
                throw OAuthError.serverError(detail: "client lookup failed: \(error)")
            }
            guard let found else { throw OAuthError(.invalidClient, "The client is not registered.") }
            client = found
        }
        var redirect: String?
        if let requested = try parameters.single("post_logout_redirect_uri") {
            guard let client else {
                throw OAuthError.invalidRequest("post_logout_redirect_uri needs an id_token_hint or a client_id.")
            }
            // Exact string match, no loopback port exception: the URI must be registered as sent.
            guard client.postLogoutRedirectURIs.contains(where: { $0.value == requested }) else {
                throw OAuthError.invalidRequest("The post_logout_redirect_uri is not registered for this client.")
            }
            redirect = requested
        }
        let state = try parameters.single("state")
        if let state, state.utf8.count > AuthorizationRequest.maximumParameterLength {
            throw OAuthError.invalidRequest("The state parameter is too long.")
        }
        return EndSessionRequest(hint: hint, client: client, postLogoutRedirectURI: redirect, state: state)
    }
}

extension EndSessionEndpoint {
    /// Creates the endpoint.
    public init(server: AuthorizationServer) { self.init(clients: server.clients, ownTokens: server.ownTokens) }
}
