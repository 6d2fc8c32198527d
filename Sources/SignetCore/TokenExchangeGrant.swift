import Foundation
import SignetCrypto
import SignetStore
import SignetWire

/// Native ID-token sign-in as an RFC 8693 token exchange: a first-party native app trades a
/// provider's ID token (from Android Credential Manager or Apple's native sheet), bound to a
/// one-time nonce Signet issued (`NativeNonceEndpoint`), for Signet's own tokens.
///
/// Parameters: `subject_token` (the provider ID token), `subject_token_type` =
/// `urn:ietf:params:oauth:token-type:id_token`, `connection` (the connection id), `client_id`,
/// `scope` (default `openid`), optional `nonce` (the RAW nonce; required for Apple, whose token
/// carries its SHA-256), optional `resource` (RFC 8707/8693: the access token's audience),
/// optional `requested_token_type` (only the access-token type).
///
/// Ordered checks: client (public, first-party, registered with the grant) → connection exists,
/// enabled, `native_sign_in` → parameters → the ID token (signature, `iss`, `aud` ∈ the
/// connection's native client ids, `exp`, nonce claim present) → the nonce matches a pending
/// nonce Signet issued to this client, consumed atomically in the same step → the sign-in gate on
/// the account the identity would sign in as (found or to be made, `FederatedAccountResolver.peek`):
/// an `sso_required` domain this connection does not govern, a second factor, an enrolment or a
/// level the exchange cannot give answer `interaction_required` ("continue in the browser") with
/// nothing created or linked → find or provision the account → the gate again on the stored
/// account → tokens from its admission (`amr` = `["fed"]`). Nothing is created before the nonce
/// is consumed and the gate let it through, and nothing secret is logged.
struct TokenExchangeGrant: NetworkGrantHandler {
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"

    /// Verifies the provider's ID token (fetching its keys).
    let verifier: any NativeIDTokenVerifier
    /// Signet's one-time nonces.
    let nonces: any NonceStore
    /// Finds or provisions the account.
    let accounts: FederatedAccountResolver
    /// Nonce hashes, the new grant family and its end, its first refresh token, the response,
    /// native sign-ins.
    let parts: TokenGrantParts
    /// Grant ids.
    let random: any RandomSource
    /// The one sign-in policy.
    let gate: SignInGate

    var grantType: GrantType { .tokenExchange }
    // `actor_token`, `actor_token_type` and `audience` are refused when present, not accepted.
    let parameters = ["connection", "subject_token_type", "subject_token", "requested_token_type", "resource", "scope", "nonce"]

    func handleAsync(_ parameters: RequestParameters, client: Client) async throws(OAuthError) -> TokenResponse {
        // 1. The client: native sign-in is for the operator's own public apps only.
        guard client.isPublic, client.isFirstParty else {
            throw OAuthError(.unauthorizedClient, "Only first-party native apps may use native sign-in.")
        }
        // 2. The connection.
        guard let connectionID = try parameters.single("connection"), !connectionID.isEmpty else {
            throw OAuthError.invalidRequest("The connection parameter is missing.")
        }
        guard let connection = verifier.connection(id: connectionID), connection.enabled, connection.nativeSignIn else {
            throw OAuthError.invalidGrant("The connection does not accept native sign-in.",
                                          detail: "connection \(connectionID) unknown, disabled or not native")
        }
        // 3. The request parameters (RFC 8693 §2.1).
        guard let tokenType = try parameters.single("subject_token_type") else {
            throw OAuthError.invalidRequest("The subject_token_type parameter is missing.")
        }
        guard tokenType == Self.idTokenType else {
            throw OAuthError.invalidRequest("subject_token_type must be \(Self.idTokenType).")
        }
        guard let subjectToken = try parameters.single("subject_token"), !subjectToken.isEmpty else {
            throw OAuthError.invalidRequest("The subject_token parameter is missing.")
        }
        if parameters.contains("actor_token") || parameters.contains("actor_token_type") {
            throw OAuthError.invalidRequest("Delegation (actor_token) is not supported.")
        }
        if let requested = try parameters.single("requested_token_type"), requested != Self.accessTokenType {
            throw OAuthError.invalidRequest("Only access tokens can be requested.")
        }
        if parameters.contains("audience") {
            throw OAuthError(.invalidTarget, "Use resource, not audience, to name the API.")
        }
        let resources = try ResourceIndicator.requested(parameters, client: client)
        let scope = try requestedScope(parameters, client: client)
        let rawNonceParameter = try parameters.single("nonce")
        if connection.nonceForm == .sha256Hex, rawNonceParameter == nil {
            throw OAuthError.invalidRequest("The nonce parameter (the raw nonce) is required for this connection.")
        }

        // 4. The provider's ID token.
        let verified = try await verifier.verify(subjectToken, connection: connection)

        // 5. The nonce: Signet's own pending nonce, bound to this client, used exactly once.
        let rawNonce = rawNonceParameter ?? verified.nonce
        guard nonceMatches(tokenNonce: verified.nonce, raw: rawNonce, form: connection.nonceForm) else {
            throw OAuthError.invalidGrant("The ID token's nonce does not match.")
        }
        guard parts.tokens.hasShape(rawNonce, of: .nonce) else {
            throw OAuthError.invalidGrant("The nonce was not issued by this server.")
        }
        let now = parts.clock.now
        let consumed: Bool
        do {
            consumed = try nonces.consumeNonce(nonceHash: parts.tokens.hash(rawNonce), clientID: client.id, now: now)
        } catch {
            throw OAuthError.serverError(detail: "nonce store: \(error)")
        }
        guard consumed else {
            throw OAuthError.invalidGrant("The nonce is unknown, expired or already used.")
        }

        // 6. The gate, on the account the identity would sign in as, before anything is written.
        let requirements = SignInRequirements.client(client)
        let prospect: FederatedAccountResolver.Outcome
        do {
            if let realm = try gate.realmRefusal(email: verified.identity.email ?? "", way: .nativeIDToken, connectionID: connection.id) {
                throw browserNeeded(.organizationIdP(realm), client: client, connection: connection)
            }
            prospect = try accounts.peek(verified.identity, connectionID: connection.id, allowLinking: connection.allowLinking)
            if let candidate = prospect.user {
                try admitted(SignInEvent(user: candidate, amr: ["fed"], way: .nativeIDToken, connectionID: connection.id), requirements,
                             client: client, connection: connection)
            }
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError.serverError(detail: "native sign-in gate: \(error)")
        }
        try refuseWithoutUser(prospect)

        // 7. The account, exactly as browser federation resolves it, and the gate on it as stored.
        let admission: Admission
        do {
            let outcome = try accounts.resolve(verified.identity, connectionID: connection.id, allowLinking: connection.allowLinking)
            try refuseWithoutUser(outcome)
            guard let user = outcome.user else { throw OAuthError.invalidGrant("The account cannot sign in.") }
            admission = try admitted(SignInEvent(user: user, amr: ["fed"], way: .nativeIDToken, connectionID: connection.id), requirements,
                                     client: client, connection: connection)
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError.serverError(detail: "account resolution: \(error)")
        }
        let user = admission.user
        parts.auditor.record("native_sign_in", actor: "client:\(client.id)", subject: user.id, client: client.id, method: "native:\(connection.id)",
                             detail: ["connection": .string(connection.id)])

        // 7. Signet's tokens.
        do {
            let terms = GrantTerms(clientID: client.id, userID: user.id, scope: scope.description, resources: resources,
                                   amr: admission.amr, authTime: admission.authTime)
            let grant = GrantRecord(grantID: random.identifier(), terms: terms,
                                    createdAt: now, absoluteExpiresAt: parts.familyExpiry(startingAt: now))
            try parts.refreshTokens.createGrant(grant)
            var response = try parts.responses.build(
                client: client, user: user, scope: scope, grantID: grant.grantID, resources: grant.resources, nonce: nil,
                authTime: admission.authTime, amr: admission.amr, sessionID: nil, refreshToken: try parts.refreshMinter.first(grant: grant, client: client, scope: scope, now: now))
            response.issuedTokenType = Self.accessTokenType
            return response
        } catch let error as OAuthError {
            throw error
        } catch {
            throw OAuthError.serverError(detail: "token exchange issuance: \(error)")
        }
    }

    /// The gate's admission for `event`, or the error that sends the app to the browser.
    @discardableResult
    private func admitted(_ event: SignInEvent, _ requirements: SignInRequirements, client: Client,
                          connection: NativeSignInConnection) throws -> Admission {
        let decision = try gate.decide(event, for: requirements)
        guard case .proceed(let admission) = decision else { throw browserNeeded(decision, client: client, connection: connection) }
        return admission
    }

    /// A sign-in the exchange cannot finish: `interaction_required`, and the app continues in the
    /// browser (SignetKit: `SignInError.needsBrowser`), where the gate's step (the organization's
    /// IdP, the second factor, the enrolment) can be shown; a disabled user is refused as such.
    private func browserNeeded(_ decision: SignInDecision, client: Client, connection: NativeSignInConnection) -> OAuthError {
        switch decision {
        case .refused:
            return OAuthError.invalidGrant("The user is not active.")
        case .organizationIdP:
            return OAuthError(.interactionRequired, "This account signs in through its organization's identity provider; continue in the browser.")
        default:
            return OAuthError(.interactionRequired, "This sign-in needs another step; continue in the browser.")
        }
    }

    /// The errors of an outcome without a user to sign in as.
    private func refuseWithoutUser(_ outcome: FederatedAccountResolver.Outcome) throws(OAuthError) {
        switch outcome {
        case .existing, .linked, .created:
            return
        case .linkRequired:
            throw OAuthError.invalidGrant("An account with this email already exists; sign in to it first.")
        case .disabled:
            throw OAuthError.invalidGrant("The user is not active.")
        case .emailMissing:
            throw OAuthError.invalidGrant("The provider did not share an email address.")
        case .emailNotVerified:
            throw OAuthError.invalidGrant("The provider has not verified the email address.")
        }
    }

    /// The granted scope: `scope` (default `openid`) within the client's allowed scope.
    private func requestedScope(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> Scope {
        let text = try parameters.single("scope") ?? Scope.openID
        let scope: Scope
        do { scope = try Scope(parsing: text) } catch {
            throw OAuthError(.invalidScope, "The scope is malformed.")
        }
        guard scope.isSubset(of: client.allowedScope) else {
            throw OAuthError(.invalidScope, "The requested scope is not allowed for this client.")
        }
        return scope
    }

    /// Google/OIDC: the token's nonce is the raw nonce. Apple: it is SHA-256 (lowercase hex) of
    /// the raw nonce the app sent beside the token. Constant-time comparisons.
    private func nonceMatches(tokenNonce: String, raw: String, form: NativeSignInConnection.NonceForm) -> Bool {
        switch form {
        case .raw:
            return constantTimeEquals(Array(tokenNonce.utf8), Array(raw.utf8))
        case .sha256Hex:
            return constantTimeEquals(Array(tokenNonce.lowercased().utf8), Array(Digest.sha256Hex(raw).utf8))
        }
    }

}

extension TokenExchangeGrant {
    /// Takes its parts from the server.
    init(server: AuthorizationServer, verifier: any NativeIDTokenVerifier, gate: SignInGate) {
        self.init(verifier: verifier, nonces: server.storage.nonces, accounts: FederatedAccountResolver(server: server),
                  parts: server.grantParts, random: server.random, gate: gate)
    }
}
