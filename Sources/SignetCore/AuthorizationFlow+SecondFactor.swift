import Foundation
import SignetStore
import SignetWire

/// Who has given a first factor for a pending request and still owes the second: kept in the
/// pending-request table (client id `mfa`) under its own `sgq_` handle until the second factor
/// (or the enrolment) succeeds, when it is consumed atomically. No session exists meanwhile, so
/// a password alone never yields a session for a user who has a second factor.
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

    enum CodingKeys: String, CodingKey {
        case requestHandle = "request", userID = "user", amr, enrol
    }

    /// The pending-request table's client id for challenges.
    static let clientID = "mfa"
}

/// What signing in with a first factor led to.
public enum SignInOutcome: Sendable {
    /// A session was started (set its cookie), and the browser goes on to `step`.
    case session(token: String, session: ActiveSession, step: FlowStep)
    /// No session yet: the browser goes on to `step` (a second factor, an enrolment, an error).
    case step(FlowStep)
}

extension AuthorizationFlow {
    /// The level a request needs: the weakest known value of its `acr_values`, raised to
    /// multi-factor by `mfa.required` or the client's `mfa_required`.
    public func requiredLevel(_ request: AuthorizationRequest, client: Client) -> AuthenticationLevel {
        let requested = AuthenticationLevel.requested(request.acrValueList) ?? .password
        return mfaRequired || client.requiresMFA ? max(requested, .multiFactor) : requested
    }

    /// Whether the session reaches the level the pending request needs.
    public func meetsLevel(_ pending: PendingRequest, session: ActiveSession) -> Bool {
        AuthenticationLevel(amr: session.record.amr) >= requiredLevel(pending.request, client: pending.client)
    }

    /// After a first factor (`amr`, such as `["pwd"]` or `["fed"]`) proved `user`: a user with a
    /// second factor gives it next; a request that needs more than the user has ends in an
    /// enrolment or `unmet_authentication_requirements`; otherwise a new session starts (the
    /// browser's previous one, `previousSessionToken`, ends: no fixation) and the flow goes on.
    public func signedIn(_ pending: PendingRequest, user: UserRecord, amr: [String], previousSessionToken: String?,
                         offeringPasskey: Bool = false) throws -> SignInOutcome {
        switch try secondFactorStep(pending, userID: user.id, amr: amr) {
        case .challenge(let step):
            return .step(step)
        case .unmet:
            // Only a passkey reaches `phr`; a password and a TOTP code never do.
            _ = try consume(pending)
            return .step(.error(OAuthError(.unmetAuthenticationRequirements,
                                           "The requested authentication level cannot be met with this sign-in method."),
                                redirectURI: pending.request.redirectURI, state: pending.request.state))
        case .enough:
            break
        }
        try sessions.end(token: previousSessionToken)
        let started = try sessions.start(user: user, amr: amr)
        if offeringPasskey {
            return .session(token: started.token, session: started.session, step: .passkeyOffer(requestHandle: pending.handle))
        }
        return .session(token: started.token, session: started.session, step: try afterSignIn(pending, session: started.session))
    }

    /// The step-up for a session that does not reach the request's level: its user's second
    /// factor, or enrolment; nil when only signing in again can help (a passkey for `phr`).
    func stepUp(_ pending: PendingRequest, session: ActiveSession) throws -> FlowStep? {
        if case .challenge(let step) = try secondFactorStep(pending, userID: session.user.id, amr: session.record.amr) { return step }
        return nil
    }

    private enum Need { case challenge(FlowStep), unmet, enough }

    /// The second factor or enrolment a first factor still needs, or nil when it is enough.
    private func secondFactorStep(_ pending: PendingRequest, userID: String, amr: [String]) throws -> Need {
        let reached = AuthenticationLevel(amr: amr)
        let needed = requiredLevel(pending.request, client: pending.client)
        let hasFactor = try secondFactors.totpFactor(userID: userID)?.isConfirmed ?? false
        if reached < .multiFactor, hasFactor || needed == .multiFactor {
            let handle = try storeChallenge(SecondFactorChallenge(requestHandle: pending.handle, userID: userID, amr: amr, enrol: !hasFactor))
            return .challenge(hasFactor ? .secondFactor(challengeHandle: handle) : .enrolSecondFactor(challengeHandle: handle))
        }
        return reached < needed ? .unmet : .enough
    }

    /// Loads a second-factor challenge by handle (not consumed). Throws `requestNotFound` when
    /// it is unknown, expired or used.
    public func challenge(handle: String) throws -> SecondFactorChallenge {
        guard tokens.hasShape(handle, of: .request),
              let record = try requests.pendingAuthorization(idHash: tokens.hash(handle), now: clock.now),
              record.clientID == SecondFactorChallenge.clientID else { throw FlowError.requestNotFound }
        return try decodeChallenge(record, handle: handle)
    }

    /// The challenge's user, if still enabled.
    public func challengeUser(_ challenge: SecondFactorChallenge) throws -> UserRecord {
        guard let user = try users.user(id: challenge.userID), user.disabledAt == nil else { throw FlowError.userGone }
        return user
    }

    /// The second factor was given (`method`: `otp` for a TOTP or recovery code, RFC 8176):
    /// consumes the challenge (a second use gets `requestNotFound`) and starts the session with
    /// the first factor's methods, `otp` and `mfa`. With `proceed` the flow goes on at once;
    /// without it (an enrolment, whose recovery codes are shown first) the step is nil and the
    /// page goes on later through `resume`.
    public func secondFactorPassed(_ challenge: SecondFactorChallenge, previousSessionToken: String?,
                                   proceed: Bool) throws -> (token: String, session: ActiveSession, step: FlowStep?) {
        guard let record = try requests.consumePendingAuthorization(idHash: tokens.hash(challenge.handle), now: clock.now),
              record.clientID == SecondFactorChallenge.clientID else { throw FlowError.requestNotFound }
        let user = try challengeUser(challenge)
        let pending = try self.pending(handle: challenge.requestHandle)
        var amr = challenge.amr
        // RFC 8176 §2: "otp" for a one-time password (TOTP, RFC 6238; a recovery code is one too),
        // "mfa" because two factors were used.
        for method in ["otp", "mfa"] where !amr.contains(method) { amr.append(method) }
        try sessions.end(token: previousSessionToken)
        let started = try sessions.start(user: user, amr: amr)
        guard proceed else { return (started.token, started.session, nil) }
        guard meetsLevel(pending, session: started.session) else {
            _ = try consume(pending)
            return (started.token, started.session, .error(OAuthError(.unmetAuthenticationRequirements,
                "The requested authentication level cannot be met with this sign-in method."),
                redirectURI: pending.request.redirectURI, state: pending.request.state))
        }
        return (started.token, started.session, try afterSignIn(pending, session: started.session))
    }

    /// Goes on with a pending request after a page between the sign-in and the client (the
    /// recovery codes): the session must still satisfy the request and reach its level.
    public func resume(_ pending: PendingRequest, session: ActiveSession?) throws -> FlowStep {
        guard let session, satisfies(pending.request, session: session, authenticatedSince: pending.createdAt),
              meetsLevel(pending, session: session) else {
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
