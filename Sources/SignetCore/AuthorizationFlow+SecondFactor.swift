import Foundation
import SignetCrypto
import SignetStore
import SignetWire

/// Who has given a first factor for a pending request and still owes the second: kept in the
/// pending-request table (client id `mfa`) under its own `sgq_` handle until the second factor
/// (or the enrolment) succeeds, when it is consumed atomically. No session exists meanwhile, so
/// a first factor alone never yields a session for a user who has a second factor. The challenge
/// belongs to the browser that gave the first factor (`browser`, a keyed hash of its CSRF
/// cookie): another browser holding its handle gets nothing.
public struct SecondFactorChallenge: Sendable, Codable, Equatable {
    /// The challenge's own handle (not stored in the payload).
    public var handle: String = ""
    /// The pending authorization request's handle.
    public var requestHandle: String
    /// The user who gave the first factor.
    public var userID: String
    /// The first factor's methods (RFC 8176), e.g. `["pwd"]`.
    public var amr: [String]
    /// Set up a factor first (the user has none).
    public var enrol: Bool
    /// How the first factor was given, and through which connection (the gate's domain rule).
    public var way: SignInWay = .password
    public var connectionID: String?
    /// The keyed hash of the browser's CSRF value (base64url); nil for a challenge no browser holds.
    public var browser: String?

    enum CodingKeys: String, CodingKey {
        case requestHandle = "request", userID = "user", amr, enrol, way, connectionID = "connection", browser
    }

    /// The pending-request table's client id for challenges.
    static let clientID = "mfa"
}

extension SignInWay: Codable {}

/// What signing in with a first factor led to.
public enum SignInOutcome: Sendable {
    /// A session was started (set its cookie), and the browser goes on to `step`.
    case session(token: String, session: ActiveSession, step: FlowStep)
    /// No session yet: the browser goes on to `step` (a second factor, an enrolment, an error).
    case step(FlowStep)
    /// The gate held the sign-in (`organizationIdP`, `verificationRequired`, `refused`): nothing is
    /// signed in and the pending request stays, so the user can go back and take another way.
    case held(SignInDecision)
}

extension AuthorizationFlow {
    /// The level a request needs (the gate's rule).
    public func requiredLevel(_ request: AuthorizationRequest, client: Client) -> AuthenticationLevel {
        gate.requiredLevel(.request(request, client: client))
    }

    /// Whether the session may go on with the pending request as it is: fresh enough and at its level.
    public func meetsLevel(_ pending: PendingRequest, session: ActiveSession) throws -> Bool {
        if case .proceed = try gate.admit(session, for: .pending(pending)) { return true }
        return false
    }

    /// After a first factor proved `event.user`, the gate decides: a user with a second factor
    /// gives it next (a challenge bound to `browser`, the browser's CSRF value); a request that
    /// needs more than the user has ends in an enrolment or `unmet_authentication_requirements`;
    /// a held sign-in starts nothing; otherwise a new session starts from the gate's admission
    /// (the browser's previous one, `previousSessionToken`, ends: no fixation) and the flow goes on,
    /// by way of the passkey offer when `offeringPasskey`.
    public func signedIn(_ pending: PendingRequest, _ event: SignInEvent, browser: String?, previousSessionToken: String?,
                         offeringPasskey: Bool = false) throws -> SignInOutcome {
        let decision = try gate.decide(event, for: .pending(pending))
        switch decision {
        case .proceed(let admission):
            try sessions.end(token: previousSessionToken)
            let started = try sessions.start(admission)
            let step = offeringPasskey ? FlowStep.passkeyOffer(requestHandle: pending.handle) : try afterSignIn(pending, session: started.session)
            return .session(token: started.token, session: started.session, step: step)
        case .secondFactor, .enrolSecondFactor:
            return .step(try secondFactorStep(pending, userID: event.user.id, amr: event.amr, enrol: decision == .enrolSecondFactor,
                                              browser: browser, way: event.way, connectionID: event.connectionID))
        case .unmet, .freshSignIn:
            // Only a passkey reaches `phr`; a password and a TOTP code never do.
            _ = try consume(pending)
            return .step(.error(OAuthError(.unmetAuthenticationRequirements,
                                           "The requested authentication level cannot be met with this sign-in method."),
                                redirectURI: pending.request.redirectURI, state: pending.request.state))
        case .organizationIdP, .verificationRequired, .refused:
            return .held(decision)
        }
    }

    /// Stores the challenge of a second factor (or its enrolment) and names its page.
    func secondFactorStep(_ pending: PendingRequest, userID: String, amr: [String], enrol: Bool, browser: String?,
                          way: SignInWay, connectionID: String? = nil) throws -> FlowStep {
        let handle = try storeChallenge(SecondFactorChallenge(requestHandle: pending.handle, userID: userID, amr: amr, enrol: enrol,
                                                              way: way, connectionID: connectionID, browser: browser.map(browserBinding)))
        return enrol ? .enrolSecondFactor(challengeHandle: handle) : .secondFactor(challengeHandle: handle)
    }

    /// The keyed hash a challenge keeps of its browser's CSRF value.
    func browserBinding(_ value: String) -> String { Base64URL.encode(tokens.hash("browser/" + value)) }

    /// Loads a second-factor challenge by handle (not consumed) for the browser whose CSRF value
    /// is `browser`. Throws `requestNotFound` when it is unknown, expired, used, or another
    /// browser's (the same answer, so a handle tells another browser nothing).
    public func challenge(handle: String, browser: String?) throws -> SecondFactorChallenge {
        guard tokens.hasShape(handle, of: .request),
              let record = try requests.pendingAuthorization(idHash: tokens.hash(handle), now: clock.now),
              record.clientID == SecondFactorChallenge.clientID else { throw FlowError.requestNotFound }
        let challenge = try decodeChallenge(record, handle: handle)
        guard let bound = challenge.browser, let browser,
              constantTimeEquals(Array(bound.utf8), Array(browserBinding(browser).utf8)) else { throw FlowError.requestNotFound }
        return challenge
    }

    /// The challenge's user, if still enabled.
    public func challengeUser(_ challenge: SecondFactorChallenge) throws -> UserRecord {
        guard let user = try users.user(id: challenge.userID), user.disabledAt == nil else { throw FlowError.userGone }
        return user
    }

    /// The second factor was given (a TOTP or recovery code: `otp`, RFC 8176): consumes the
    /// challenge (a second use gets `requestNotFound`) and hands the gate the first factor's way
    /// with `otp` and `mfa`. On `.proceed` the session starts; with `proceed` the flow goes on at
    /// once, without it (an enrolment, whose recovery codes are shown first) the step is nil and
    /// the page goes on later through `resume`.
    public func secondFactorPassed(_ challenge: SecondFactorChallenge, previousSessionToken: String?,
                                   proceed: Bool) throws -> (token: String?, step: FlowStep?) {
        guard let record = try requests.consumePendingAuthorization(idHash: tokens.hash(challenge.handle), now: clock.now),
              record.clientID == SecondFactorChallenge.clientID else { throw FlowError.requestNotFound }
        let user = try challengeUser(challenge)
        let pending = try self.pending(handle: challenge.requestHandle)
        var amr = challenge.amr
        // RFC 8176 §2: "otp" for a one-time password (TOTP, RFC 6238; a recovery code is one too),
        // "mfa" because two factors were used.
        for method in ["otp", "mfa"] where !amr.contains(method) { amr.append(method) }
        let event = SignInEvent(user: user, amr: amr, way: challenge.way, connectionID: challenge.connectionID)
        guard case .proceed(let admission) = try gate.decide(event, for: .pending(pending)) else {
            _ = try consume(pending)
            return (nil, .error(OAuthError(.unmetAuthenticationRequirements,
                "The requested authentication level cannot be met with this sign-in method."),
                redirectURI: pending.request.redirectURI, state: pending.request.state))
        }
        try sessions.end(token: previousSessionToken)
        let started = try sessions.start(admission)
        guard proceed else { return (started.token, nil) }
        return (started.token, try afterSignIn(pending, session: started.session))
    }

    /// Goes on with a pending request after a page between the sign-in and the client (the
    /// recovery codes, the passkey offer): the session must have signed in for this request
    /// (`auth_time` after it was received) and pass the gate (freshness, domain, level) again.
    public func resume(_ pending: PendingRequest, session: ActiveSession?) throws -> FlowStep {
        guard let session, session.record.authTime >= pending.createdAt,
              case .proceed = try gate.admit(session, for: .pending(pending)) else {
            return .signIn(requestHandle: pending.handle)
        }
        return try afterSignIn(pending, session: session)
    }

    private func storeChallenge(_ challenge: SecondFactorChallenge) throws -> String {
        let now = clock.now
        let handle = tokens.make(.request)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = String(decoding: try encoder.encode(challenge), as: UTF8.self)
        try requests.insertPendingAuthorization(PendingAuthorizationRecord(
            idHash: tokens.hash(handle), clientID: SecondFactorChallenge.clientID, payload: payload, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(requestLifetime))))
        return handle
    }

    private func decodeChallenge(_ record: PendingAuthorizationRecord, handle: String) throws -> SecondFactorChallenge {
        do {
            var challenge = try JSONDecoder().decode(SecondFactorChallenge.self, from: Data(record.payload.utf8))
            challenge.handle = handle
            return challenge
        } catch {
            throw StoreError.corrupt("second-factor challenge payload")
        }
    }
}
