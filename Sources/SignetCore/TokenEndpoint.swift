import Foundation
import SignetWire

/// `POST /token` (RFC 6749 §3.2): finds the grant's handler by `grant_type` in its registry,
/// authenticates the client, checks that the client may use the grant, refuses repeated
/// parameters, and runs the handler.
///
/// The registry is built once, when the endpoint is made (`AuthorizationServer.grantHandlers`
/// lists the server's grants). A grant that needs the network (the token exchange, which may fetch
/// a provider's keys) runs only through `handleAsync`; the others run inline through
/// `handleInline`, so the HTTP layer asks the endpoint, never the grant name, whether a request
/// must be suspended.
public struct TokenEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    private let handlers: [GrantType: any GrantHandler]
    /// The grant types of the registry, in the order they were registered (discovery's
    /// `grant_types_supported`).
    public let grantTypes: [GrantType]

    /// The one parameter that may be repeated (RFC 8707 §2: to name several APIs).
    public static let repeatableParameters: Set<String> = ["resource"]

    /// Creates the endpoint with its registry. The first handler of a grant type wins.
    public init(clients: ClientRegistry, grants: [any GrantHandler]) {
        self.authenticator = ClientAuthenticator(clients: clients)
        var handlers: [GrantType: any GrantHandler] = [:]
        var order: [GrantType] = []
        for grant in grants where handlers[grant.grantType] == nil {
            handlers[grant.grantType] = grant
            order.append(grant.grantType)
        }
        self.handlers = handlers
        self.grantTypes = order
    }

    /// The server's grants (`AuthorizationServer.grantHandlers`); without `nativeSignIn` the
    /// token-exchange grant is not registered, so it is `unsupported_grant_type`.
    public init(server: AuthorizationServer, nativeSignIn: NativeSignInParts? = nil) {
        self.init(clients: server.clients, grants: server.grantHandlers(nativeSignIn: nativeSignIn))
    }

    /// Runs a token request inline, or returns nil when its grant needs the network: then the
    /// caller suspends the request and calls `handleAsync`. Errors are `OAuthError`s for the one
    /// error mapping to render; a request refused before its grant is known (no, a repeated or an
    /// unknown `grant_type`) is answered inline.
    public func handleInline(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) -> TokenResponse? {
        let handler = try handler(for: parameters)
        guard !handler.needsNetwork else { return nil }
        let client = try authenticate(parameters, authorization: authorization, for: handler)
        return try handler.handle(parameters, client: client)
    }

    /// Runs a token request of a grant that needs no network; a grant that does is
    /// `unsupported_grant_type` here (use `handleAsync`).
    public func handle(_ parameters: RequestParameters, authorization: String?) throws(OAuthError) -> TokenResponse {
        guard let response = try handleInline(parameters, authorization: authorization) else { throw Self.unsupported }
        return response
    }

    /// Runs any token request, including those whose grant needs the network.
    public func handleAsync(_ parameters: RequestParameters, authorization: String?) async throws(OAuthError) -> TokenResponse {
        let handler = try handler(for: parameters)
        let client = try authenticate(parameters, authorization: authorization, for: handler)
        return try await handler.handleAsync(parameters, client: client)
    }

    private static let unsupported = OAuthError(.unsupportedGrantType, "This grant type is not supported.")

    /// The handler `grant_type` names: `invalid_request` when it is missing or repeated,
    /// `unsupported_grant_type` when no handler is registered for it (RFC 6749 §5.2).
    private func handler(for parameters: RequestParameters) throws(OAuthError) -> any GrantHandler {
        guard let grantName = try parameters.single("grant_type") else {
            throw OAuthError.invalidRequest("The grant_type parameter is missing.")
        }
        guard let grant = GrantType(rawValue: grantName), let handler = handlers[grant] else { throw Self.unsupported }
        return handler
    }

    /// The authenticated client, once it may use the grant (else `unauthorized_client`,
    /// RFC 6749 §5.2) and no parameter of the grant is repeated (else `invalid_request`).
    private func authenticate(_ parameters: RequestParameters, authorization: String?,
                              for handler: any GrantHandler) throws(OAuthError) -> Client {
        let client = try authenticator.authenticate(parameters, authorization: authorization)
        guard client.grantTypes.contains(handler.grantType) else {
            throw OAuthError(.unauthorizedClient, "The client may not use this grant type.")
        }
        try Self.refuseRepeats(parameters, among: handler.parameters)
        return client
    }

    /// RFC 6749 §3.2: a parameter "MUST NOT be included more than once"; unknown ones are ignored.
    /// One scan of the request per accepted name (a handful), so an attacker-sized body costs
    /// linear time, and nothing is allocated.
    static func refuseRepeats(_ parameters: RequestParameters, among accepted: [String]) throws(OAuthError) {
        for name in accepted where !repeatableParameters.contains(name) { _ = try parameters.single(name) }
    }
}

/// What the native ID-token exchange needs beyond the server: the provider token verifier and the
/// sign-in gate its sign-ins pass.
public struct NativeSignInParts: Sendable {
    /// Verifies a provider's ID token.
    public let verifier: any NativeIDTokenVerifier
    /// The one sign-in policy.
    public let gate: SignInGate

    /// Pairs them.
    public init(verifier: any NativeIDTokenVerifier, gate: SignInGate) {
        self.verifier = verifier
        self.gate = gate
    }
}
