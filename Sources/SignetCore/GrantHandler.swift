import SignetWire

/// One grant type of the token endpoint (RFC 6749 §4, §6; RFC 8693), in its own file.
///
/// `TokenEndpoint` has done the shared part before a handler runs: it read `grant_type` and found
/// the handler, authenticated the client (RFC 6749 §2.3), checked that the client is registered
/// for `grantType` (else `unauthorized_client`), and refused a repeated parameter of `parameters`
/// (RFC 6749 §3.2: parameters "MUST NOT be included more than once"). Parameters not in the list
/// are ignored, as RFC 6749 §3.2 requires for unrecognised ones; only `resource` may be repeated
/// (RFC 8707 §2).
///
/// A handler takes the stores and services it uses, not the whole `AuthorizationServer`, so a test
/// can build it alone. Every error it throws is an `OAuthError`.
public protocol GrantHandler: Sendable {
    /// The `grant_type` value it answers.
    var grantType: GrantType { get }
    /// The request parameters it reads, besides `grant_type`, `client_id` and `client_secret`, in
    /// the order it reads them (the first repeated one is the one reported).
    var parameters: [String] { get }
    /// Whether it awaits the network (an upstream's keys): then the request is suspended and
    /// runs through `handleAsync`; otherwise it runs inline on the HTTP thread through `handle`.
    var needsNetwork: Bool { get }

    /// Runs a request of an authenticated client that may use the grant.
    func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse
    /// Runs a request of an authenticated client that may use the grant, awaiting the network.
    func handleAsync(_ parameters: RequestParameters, client: Client) async throws(OAuthError) -> TokenResponse
}

extension GrantHandler {
    /// A grant runs inline unless it says otherwise.
    public var needsNetwork: Bool { false }

    /// An inline grant awaits nothing.
    public func handleAsync(_ parameters: RequestParameters, client: Client) async throws(OAuthError) -> TokenResponse {
        try handle(parameters, client: client)
    }

    /// Runs `body`, keeping its `OAuthError`s and turning any other error (a store failure) into
    /// `server_error`, whose private detail names the grant.
    func oauthErrors<Value>(_ body: () throws -> Value) throws(OAuthError) -> Value {
        do { return try body() } catch let error as OAuthError { throw error } catch {
            throw OAuthError.serverError(detail: "\(grantType.rawValue): \(error)")
        }
    }
}

/// A grant that awaits the network: `TokenEndpoint` always runs it through `handleAsync`.
public protocol NetworkGrantHandler: GrantHandler {}

extension NetworkGrantHandler {
    /// Always true.
    public var needsNetwork: Bool { true }

    /// Never called by `TokenEndpoint`, which suspends the request and calls `handleAsync`.
    public func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse {
        throw OAuthError.serverError(detail: "\(grantType.rawValue) needs the network: run it through handleAsync")
    }
}
