import Foundation
import SignetStore
import SignetWire

/// The interactive half of `/authorize`, after `AuthorizationEndpoint.validate` has accepted a
/// request: decides between a code, the sign-in page, the consent page and an error, and keeps
/// the pending request in between.
///
/// A pending request is stored under an `sgq_` handle (only its keyed hash is kept) for
/// `policy.authorizationRequestLifetime` seconds, and is consumed atomically when it yields a code
/// or an error, so one request can never yield two codes.
public struct AuthorizationFlow: Sendable {
    /// Sessions.
    public let sessions: SessionManager
    /// Consent rules.
    public let consent: ConsentPolicy
    /// Code issuance.
    public let codes: CodeIssuer
    let requests: any AuthorizationRequestStore
    let clients: ClientRegistry
    let tokens: OpaqueTokens
    let auditor: Auditor
    let clock: any Clock
    /// A pending request's lifetime, seconds.
    let requestLifetime: Int
    /// Users, for a second-factor challenge's user.
    let users: any UserStore
    /// The one sign-in policy every sign-in and every reused session passes.
    public let gate: SignInGate
    /// The organization of a request for scope `organization`.
    let organizations: OrganizationSelection

    /// The first decision for a checked request and the browser's session cookie value, if any.
    ///
    /// A usable session (the gate's `admit`) and no `prompt=login` gives a code, or the consent page
    /// when consent is needed. `prompt=none` never shows a page: `login_required` or
    /// `consent_required` instead (OpenID Connect Core §3.1.2.1). Otherwise the sign-in page.
    /// Using a session extends its idle timeout.
    ///
    /// A session that is fine but does not reach the level the request needs (`requiredLevel`:
    /// `acr_values`, `mfa.required`, the client's `mfa_required`) is never used as it is (no silent
    /// downgrade): with `prompt=none` the answer is `login_required`; otherwise the user gives the
    /// missing second factor (step-up), sets one up, or signs in again for a passkey.
    /// `browser` is the browser's CSRF value, which a step-up's second-factor challenge is bound to.
    public func start(_ request: AuthorizationRequest, client: Client, sessionToken: String?, browser: String? = nil) throws -> FlowStep {
        var session = try sessions.active(token: sessionToken)
        var decision = try session.map { try gate.admit($0, for: .request(request, client: client)) }
        if decision == .freshSignIn { session = nil; decision = nil }
        if case .organizationIdP = decision { session = nil; decision = nil }
        if let current = session { session = try sessions.touch(current) }
        if let current = session, let decision, decision == .secondFactor || decision == .enrolSecondFactor {
            if request.prompts(.none) {
                // OpenID Connect Core §3.1.2.6: the user must authenticate (further) and no page may be shown.
                return .error(OAuthError(.loginRequired, "The session does not meet the requested authentication level."),
                              redirectURI: request.redirectURI, state: request.state)
            }
            if !request.prompts(.login) {
                let handle = try store(request)
                let pending = PendingRequest(handle: handle, request: request, client: client, createdAt: clock.now)
                return try secondFactorStep(pending, userID: current.user.id, amr: current.record.amr, enrol: decision == .enrolSecondFactor,
                                            browser: browser, way: .session)
            }
            session = nil
        }
        if request.prompts(.none) {
            guard let session else {
                return .error(OAuthError(.loginRequired, "The user is not signed in."), redirectURI: request.redirectURI, state: request.state)
            }
            let organization: OrganizationMembership?
            switch try organizationGate(request, client: client, session: session) {
            case .goOn(let chosen): organization = chosen
            case .refuse(let error): return .error(error, redirectURI: request.redirectURI, state: request.state)
            case .pick:
                // OpenID Connect Core §3.1.2.6: the user must pick an organization, and no page may be shown.
                return .error(OAuthError(.interactionRequired, "The user is a member of several organizations; name one with organization."),
                              redirectURI: request.redirectURI, state: request.state)
            }
            if try consent.isRequired(client: client, userID: session.user.id, request: request) {
                return .error(OAuthError(.consentRequired, "The user has not allowed this client."),
                              redirectURI: request.redirectURI, state: request.state)
            }
            return .code(try codes.issue(request, session: session, organization: organization),
                         redirectURI: request.redirectURI, state: request.state)
        }
        if let session, !request.prompts(.login) {
            let organization: OrganizationMembership?
            switch try organizationGate(request, client: client, session: session) {
            case .goOn(let chosen): organization = chosen
            case .refuse(let error): return .error(error, redirectURI: request.redirectURI, state: request.state)
            case .pick: return .pickOrganization(requestHandle: try store(request))
            }
            if try consent.isRequired(client: client, userID: session.user.id, request: request) {
                return .consent(requestHandle: try store(request))
            }
            return .code(try codes.issue(request, session: session, organization: organization),
                         redirectURI: request.redirectURI, state: request.state)
        }
        return .signIn(requestHandle: try store(request))
    }

    /// Loads a pending request by handle. Throws `FlowError.requestNotFound` when it is unknown,
    /// expired or already used.
    public func pending(handle: String) throws -> PendingRequest {
        guard tokens.hasShape(handle, of: .request),
              let record = try requests.pendingAuthorization(idHash: tokens.hash(handle), now: clock.now),
              record.clientID != SecondFactorChallenge.clientID
        else { throw FlowError.requestNotFound }
        return try decode(record, handle: handle)
    }

    /// The next step after the user signed in (`session` is the new session): the consent page,
    /// or the code. When an `id_token_hint` named another user, `login_required` (OpenID Connect
    /// Core §3.1.2.1).
    public func afterSignIn(_ pending: PendingRequest, session: ActiveSession) throws -> FlowStep {
        let request = pending.request
        if let hinted = request.hintedSubject, hinted != session.user.id {
            _ = try consume(pending)
            return .error(OAuthError(.loginRequired, "The signed-in user is not the one the id_token_hint names."),
                          redirectURI: request.redirectURI, state: request.state)
        }
        let organization: OrganizationMembership?
        switch try organizationGate(request, client: pending.client, session: session) {
        case .goOn(let chosen): organization = chosen
        case .refuse(let error):
            _ = try consume(pending)
            return .error(error, redirectURI: request.redirectURI, state: request.state)
        case .pick: return .pickOrganization(requestHandle: pending.handle)
        }
        if try consent.isRequired(client: pending.client, userID: session.user.id, request: request) {
            return .consent(requestHandle: pending.handle)
        }
        let consumed = try consume(pending)
        return .code(try codes.issue(consumed, session: session, organization: organization),
                     redirectURI: consumed.redirectURI, state: consumed.state)
    }

    /// The user's answer on the consent page. Without a session that satisfies the request, the
    /// user signs in first. Allow remembers the consent (unless the client must always ask) and
    /// issues the code; deny sends `access_denied`.
    public func decideConsent(_ pending: PendingRequest, session: ActiveSession?, allow: Bool) throws -> FlowStep {
        guard let session, case .proceed = try gate.admit(session, for: .pending(pending)) else {
            return .signIn(requestHandle: pending.handle)
        }
        // The membership is read again: it may have changed while the consent page was open.
        var organization: OrganizationMembership?
        if allow {
            switch try organizationGate(pending.request, client: pending.client, session: session) {
            case .goOn(let chosen): organization = chosen
            case .refuse(let error):
                let request = try consume(pending)
                return .error(error, redirectURI: request.redirectURI, state: request.state)
            case .pick: return .pickOrganization(requestHandle: pending.handle)
            }
        }
        let request = try consume(pending)
        guard allow else {
            auditor.record("consent_denied", actor: "user:\(session.user.id)", subject: session.user.id, client: pending.client.id)
            return .error(OAuthError(.accessDenied, "The user denied the request."), redirectURI: request.redirectURI, state: request.state)
        }
        try consent.remember(client: pending.client, userID: session.user.id, scope: request.parsedScope)
        auditor.record("consent_given", actor: "user:\(session.user.id)", subject: session.user.id, client: pending.client.id,
                       detail: ["scope": .string(request.parsedScope.description)])
        return .code(try codes.issue(request, session: session, organization: organization),
                     redirectURI: request.redirectURI, state: request.state)
    }

    /// Stores a pending request and returns its handle. `receivedAt`: when the request was first
    /// received, for one kept again under a new handle (its age and `prompt=login` still count from then).
    func store(_ request: AuthorizationRequest, receivedAt: Date? = nil) throws -> String {
        let now = receivedAt ?? clock.now
        let handle = tokens.make(.request)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = String(decoding: try encoder.encode(request), as: UTF8.self)
        try requests.insertPendingAuthorization(PendingAuthorizationRecord(
            idHash: tokens.hash(handle), clientID: request.clientID, payload: payload, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(requestLifetime))))
        return handle
    }

    /// Consumes the pending request atomically; a second consumer gets `requestNotFound`.
    func consume(_ pending: PendingRequest) throws -> AuthorizationRequest {
        guard let record = try requests.consumePendingAuthorization(
            idHash: tokens.hash(pending.handle), now: clock.now) else { throw FlowError.requestNotFound }
        return try decode(record, handle: pending.handle).request
    }

    private func decode(_ record: PendingAuthorizationRecord, handle: String) throws -> PendingRequest {
        let request: AuthorizationRequest
        do { request = try JSONDecoder().decode(AuthorizationRequest.self, from: Data(record.payload.utf8)) } catch {
            throw StoreError.corrupt("pending authorization payload")
        }
        guard let client = try clients.client(id: request.clientID) else { throw FlowError.clientGone }
        return PendingRequest(handle: handle, request: request, client: client, createdAt: record.createdAt)
    }
}

extension AuthorizationFlow {
    /// Creates the flow.
    /// Creates the flow, whose sign-ins and reused sessions pass `gate`.
    public init(server: AuthorizationServer, gate: SignInGate) {
        self.init(sessions: SessionManager(server: server), consent: ConsentPolicy(server: server), codes: CodeIssuer(server: server),
                  requests: server.storage.authorizationRequests, clients: server.clients, tokens: server.tokens,
                  auditor: server.auditor, clock: server.clock, requestLifetime: server.policy.authorizationRequestLifetime,
                  users: server.storage.users, gate: gate,
                  organizations: OrganizationSelection(server: server))
    }
}
