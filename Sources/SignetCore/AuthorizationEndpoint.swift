import Foundation
import SignetWire

/// How an authorization request failed.
public enum AuthorizationFailure: Error, Sendable, Equatable {
    /// Found before the client and its redirect URI were verified: shown as a page, never
    /// redirected (RFC 6749 §4.1.2.1, RFC 9700 §4.11).
    case page(OAuthError)
    /// Sent back to the verified redirect URI with `state` and `iss` (RFC 9207).
    case redirect(OAuthError, redirectURI: String, state: String?)
}

/// The checks of `/authorize`, in order. Pure logic: no I/O beyond the injected lookups.
public struct AuthorizationEndpoint: Sendable {
    /// Looks clients up.
    public let clients: ClientRegistry
    /// Returns the subject of a valid `id_token_hint` issued by Signet to `clientID` (expired
    /// hints are accepted, as OpenID Connect Core §3.1.2.1 allows), or nil.
    public let subjectOfIDTokenHint: @Sendable (_ hint: String, _ clientID: String) -> String?

    /// Creates the endpoint.
    public init(clients: ClientRegistry, subjectOfIDTokenHint: @escaping @Sendable (String, String) -> String?) {
        self.clients = clients
        self.subjectOfIDTokenHint = subjectOfIDTokenHint
    }

    /// Checks a request. Throws `.page` until the client and redirect URI are verified, then
    /// `.redirect`.
    public func validate(_ parameters: RequestParameters) throws(AuthorizationFailure) -> (AuthorizationRequest, Client) {
        // 1. The client.
        let clientID: String
        do { clientID = try parameters.required("client_id") } catch { throw .page(error) }
        let found: Client?
        do { found = try clients.client(id: clientID) } catch {
            throw .page(.serverError(detail: "client lookup failed: \(error)"))
        }
        guard let client = found else { throw .page(OAuthError(.invalidClient, "The client is not registered.")) }
        // 2. The redirect URI: OpenID Connect Core §3.1.2.1 requires it; exact match (RFC 8252 §7.3 for loopback).
        let redirectURI: String
        do { redirectURI = try parameters.required("redirect_uri") } catch { throw .page(error) }
        guard client.redirectURI(matching: redirectURI) != nil else {
            throw .page(OAuthError.invalidRequest("The redirect_uri is not registered for this client."))
        }
        // From here on, errors go back to the client, with state when it is readable.
        let state = try? parameters.single("state")
        func fail(_ error: OAuthError) -> AuthorizationFailure { .redirect(error, redirectURI: redirectURI, state: state) }

        // RFC 8707 §2: resource may be repeated, to name several APIs; no other parameter may.
        if let repeated = parameters.repeatedNames.first(where: { $0 != "resource" && AuthorizationRequest.known.contains($0) }) {
            throw fail(.invalidRequest("The \(repeated) parameter is repeated."))
        }
        if parameters.contains("request") { throw fail(OAuthError(.requestNotSupported, "Request objects are not supported.")) }
        if parameters.contains("request_uri") { throw fail(OAuthError(.requestURINotSupported, "request_uri is not supported.")) }
        if parameters.contains("registration") {
            throw fail(OAuthError(.registrationNotSupported, "The registration parameter is not supported."))
        }
        do {
            let request = try checkedRequest(parameters, client: client, redirectURI: redirectURI, state: state)
            return (request, client)
        } catch {
            throw fail(error)
        }
    }

    private func checkedRequest(_ parameters: RequestParameters, client: Client, redirectURI: String,
                                state: String?) throws(OAuthError) -> AuthorizationRequest {
        guard let responseType = try parameters.single("response_type") else {
            throw OAuthError.invalidRequest("The response_type parameter is missing.")
        }
        guard responseType == "code" else {
            throw OAuthError(.unsupportedResponseType, "Only response_type=code is supported.")
        }
        if let mode = try parameters.single("response_mode"), mode != "query" {
            throw OAuthError.invalidRequest("Only response_mode=query is supported.")
        }
        guard client.grantTypes.contains(.authorizationCode) else {
            throw OAuthError(.unauthorizedClient, "The client may not use the authorization code flow.")
        }
        // Scope: required, and within what the client may ask for.
        guard let scopeText = try parameters.single("scope") else { throw OAuthError(.invalidScope, "The scope parameter is missing.") }
        var scope = try Scope(parsing: scopeText)
        // RFC 6749 §4.1.2.1: a scope the client may not have is invalid_scope. A client is allowed
        // organizations by having `organization` among its scopes (docs/organizations.md).
        if scope.contains(Scope.organization), !client.allowedScope.contains(Scope.organization) {
            throw OAuthError(.invalidScope, "This client may not ask for an organization.")
        }
        guard !scope.isEmpty, scope.isSubset(of: client.allowedScope) else {
            throw OAuthError(.invalidScope, "The requested scope is not allowed for this client.")
        }
        // Deleting the account or adding a passkey is for the operator's own apps only, whatever a
        // registration says.
        if !client.isFirstParty, let reserved = Scope.firstPartyOnly.first(where: scope.contains) {
            throw OAuthError(.invalidScope, "The \(reserved) scope is only granted to first-party apps.")
        }
        if !client.grantTypes.contains(.refreshToken) {
            scope = Scope(scope.tokens.filter { $0 != Scope.offlineAccess })
        }
        // PKCE (RFC 7636, RFC 9700 §2.1.1): S256 required for public clients.
        let challenge = try parameters.single("code_challenge")
        let method = try parameters.single("code_challenge_method")
        if let challenge {
            try PKCE.validateChallenge(challenge, method: method)
        } else if method != nil {
            throw OAuthError.invalidRequest("code_challenge_method was sent without code_challenge.")
        } else if client.isPublic {
            throw OAuthError.invalidRequest("PKCE is required: send code_challenge with code_challenge_method=S256.")
        }
        // prompt (OpenID Connect Core §3.1.2.1).
        var prompts: [String] = []
        if let promptText = try parameters.single("prompt") {
            for value in promptText.split(separator: " ") {
                guard Prompt(rawValue: String(value)) != nil else {
                    throw OAuthError.invalidRequest("Unsupported prompt value.")
                }
                if !prompts.contains(String(value)) { prompts.append(String(value)) }
            }
            if prompts.contains("none") && prompts.count > 1 {
                throw OAuthError.invalidRequest("prompt=none cannot be combined with other values.")
            }
        }
        var maxAge: Int?
        if let text = try parameters.single("max_age") {
            guard text.utf8.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text) else {
                throw OAuthError.invalidRequest("max_age must be a non-negative number of seconds.")
            }
            maxAge = value
        }
        let nonce = try parameters.single("nonce")
        let loginHint = try parameters.single("login_hint")
        let acrValues = try parameters.single("acr_values")
        for (name, value) in [("state", state), ("nonce", nonce), ("login_hint", loginHint), ("acr_values", acrValues)] {
            if let value, value.utf8.count > AuthorizationRequest.maximumParameterLength {
                throw OAuthError.invalidRequest("The \(name) parameter is too long.")
            }
        }
        // RFC 6749 §4.1.2.1: a malformed parameter value is invalid_request. Whether the user may
        // have this organization is decided once the user is known (OrganizationSelection).
        var organization: String?
        if let named = try parameters.single("organization") {
            guard scope.contains(Scope.organization) else {
                throw OAuthError.invalidRequest("The organization parameter needs the organization scope.")
            }
            guard OrganizationSelection.isWellFormed(named) else {
                throw OAuthError.invalidRequest("The organization parameter must be an organization's id or slug.")
            }
            organization = named
        }
        // RFC 8707 §2: a well-formed URI the client may ask for, else invalid_target.
        let resources = try ResourceIndicator.requested(parameters, client: client)
        var hintedSubject: String?
        if let hint = try parameters.single("id_token_hint") {
            guard let subject = subjectOfIDTokenHint(hint, client.id) else {
                throw OAuthError.invalidRequest("The id_token_hint is not a valid ID token issued to this client.")
            }
            hintedSubject = subject
        }
        return AuthorizationRequest(clientID: client.id, redirectURI: redirectURI, scope: scope.description, state: state,
                                    nonce: nonce, codeChallenge: challenge, prompt: prompts, maxAge: maxAge,
                                    loginHint: loginHint, hintedSubject: hintedSubject,
                                    resource: resources.isEmpty ? nil : resources.joined(separator: " "),
                                    acrValues: acrValues.flatMap { $0.isEmpty ? nil : $0 }, organization: organization)
    }
}
