import Foundation
import SignetStore
import SignetWire

/// Where an address's domain sends its sign-ins (organizations' governed domains and the
/// configuration's home-realm domains). The server implements it; a store failure is thrown so
/// the gate fails closed.
public protocol HomeRealmLookup: Sendable {
    /// The decision for one address.
    func decision(forEmail email: String) throws -> HomeRealmDecision
}

/// No governed domains: every address is `.local` (the core's tests, a server without organizations).
public struct NoHomeRealms: HomeRealmLookup {
    /// Creates the lookup.
    public init() {}
    /// Always `.local`.
    public func decision(forEmail email: String) throws -> HomeRealmDecision { .local }
}

/// The way a sign-in was made: what the gate reads to apply the domain rules, and what the
/// audit trail names.
public enum SignInWay: String, Sendable, CaseIterable {
    case password = "pwd"
    case passkey
    case emailCode = "email_code"
    case emailLink = "email_link"
    /// The confirmation of a sign-up in the browser that signed up (the password set there).
    case signUp = "signup"
    case invitation
    case federation = "fed"
    case nativeIDToken = "native_id_token"
    case nativePasskey = "native_passkey"
    /// A step-up of an existing session (the gate's `admit` checked the session first).
    case session

    /// Whether the way goes through an upstream provider (whose connection the domain may govern).
    public var isFederated: Bool { self == .federation || self == .nativeIDToken }
}

/// One sign-in, as the gate sees it: who proved what, how and through which connection.
public struct SignInEvent: Sendable {
    /// The user the sign-in proved.
    public var user: UserRecord
    /// The methods used (RFC 8176), such as `["pwd"]`, `["otp"]`, `["fed"]`, `["hwk", "user"]`;
    /// after a second factor, the first factor's methods with `otp` and `mfa`.
    public var amr: [String]
    /// How (after a second factor: how the first factor was given).
    public var way: SignInWay
    /// The upstream connection of a federated way.
    public var connectionID: String?

    /// Creates the event.
    public init(user: UserRecord, amr: [String], way: SignInWay, connectionID: String? = nil) {
        self.user = user
        self.amr = amr
        self.way = way
        self.connectionID = connectionID
    }
}

/// What a sign-in must reach for what it is for: a pending authorization request (its `prompt`,
/// `max_age`, `acr_values`, `id_token_hint` and client), a token request's client, or the
/// server's own pages (only `mfa.required`).
public struct SignInRequirements: Sendable {
    /// The client the sign-in is for.
    public let client: Client?
    /// The authorization request, when there is one.
    public let request: AuthorizationRequest?
    /// When the request was received (freshness counts from then).
    public let receivedAt: Date?

    /// A pending authorization request's requirements.
    public static func pending(_ pending: PendingRequest) -> SignInRequirements {
        SignInRequirements(client: pending.client, request: pending.request, receivedAt: pending.createdAt)
    }

    /// An authorization request at its first decision (nothing is pending yet).
    public static func request(_ request: AuthorizationRequest, client: Client) -> SignInRequirements {
        SignInRequirements(client: client, request: request, receivedAt: nil)
    }

    /// A token request's client (the native exchange): its `mfa_required`.
    public static func client(_ client: Client) -> SignInRequirements {
        SignInRequirements(client: client, request: nil, receivedAt: nil)
    }

    /// A sign-in for no client (an invitation's new account): `mfa.required` only.
    public static let noClient = SignInRequirements(client: nil, request: nil, receivedAt: nil)
}

/// A sign-in the gate let through: the only value a browser session (`SessionManager.start`) or
/// a native exchange's tokens are made from. Its initializer is internal, so only `SignInGate`
/// makes one.
public struct Admission: Sendable, Equatable {
    /// The signed-in user.
    public let user: UserRecord
    /// The methods the tokens carry (`amr`).
    public let amr: [String]
    /// When the user authenticated (`auth_time`).
    public let authTime: Date
    /// How.
    public let way: SignInWay

    /// The level reached; its `acr` is what the tokens carry.
    public var level: AuthenticationLevel { AuthenticationLevel(amr: amr) }
}

/// What the gate decided about a sign-in.
public enum SignInDecision: Sendable, Equatable {
    /// Go on: make the session or the tokens from this.
    case proceed(Admission)
    /// The user has a second factor and gives it next.
    case secondFactor
    /// The request needs two factors and the user has none: set one up first.
    case enrolSecondFactor
    /// The request needs a level this way cannot reach (only a passkey reaches `phr`).
    case unmet
    /// An existing session does not do: sign in again (`prompt=login`, `max_age`, another user).
    case freshSignIn
    /// The address's domain is `sso_required` and this way is not its connection: nothing is
    /// signed in; the user goes to the organization's IdP.
    case organizationIdP(HomeRealmDecision)
    /// The account's address is not confirmed and `accounts.require_verified_email` is on.
    case verificationRequired
    /// The user may not sign in (disabled).
    case refused

    /// The audit trail's reason for a decision that does not go on at once.
    var reason: String? {
        switch self {
        case .proceed: nil
        case .secondFactor: "second_factor"
        case .enrolSecondFactor: "enrolment"
        case .unmet: "unmet_authentication_requirements"
        case .freshSignIn: "fresh_sign_in"
        case .organizationIdP: "sso_required"
        case .verificationRequired: "email_not_verified"
        case .refused: "disabled"
        }
    }
}

/// The one sign-in policy. Every way in — password, passkey, email code and link, the sign-up's
/// confirmation, an invitation, browser and native federation, native passkeys, the second
/// factor — hands its `SignInEvent` to `decide`, and an existing session is checked by `admit`;
/// only a `.proceed` decision carries the `Admission` that sessions and native tokens are made
/// from. The rules, in order: a disabled user is refused; an `sso_required` domain admits only
/// its own connection; an unconfirmed account is held when `require_verified_email` is on; a
/// user with a second factor gives it, and a request that needs two factors enrols one; a level
/// this way cannot reach is unmet (docs/sign-in.md, "The sign-in gate").
public struct SignInGate: Sendable {
    let secondFactors: any SecondFactorStore
    let realms: any HomeRealmLookup
    let auditor: Auditor
    let clock: any Clock
    /// `mfa.required`.
    let mfaRequired: Bool
    /// `accounts.require_verified_email`.
    let requireVerifiedEmail: Bool

    /// The decision for a sign-in that just happened.
    public func decide(_ event: SignInEvent, for requirements: SignInRequirements) throws -> SignInDecision {
        let decision = try rule(event, requirements)
        if let reason = decision.reason {
            // An account not made yet (a provider's new user) has no id to name.
            let subject = event.user.id.isEmpty ? nil : event.user.id
            auditor.record("sign_in_gate", actor: subject.map { "user:\($0)" }, subject: subject, client: requirements.client?.id,
                           method: event.way.rawValue, reason: reason)
        }
        return decision
    }

    private func rule(_ event: SignInEvent, _ requirements: SignInRequirements) throws -> SignInDecision {
        let user = event.user
        guard user.disabledAt == nil else { return .refused }
        if event.way != .session, let realm = try realmRefusal(email: user.email, way: event.way, connectionID: event.connectionID) {
            return .organizationIdP(realm)
        }
        // The code or link that proved the address confirms it, so only the other ways wait for it.
        let provesAddress = event.way == .emailCode || event.way == .emailLink || event.way == .signUp || event.way == .invitation
        if requireVerifiedEmail, !user.emailVerified, !provesAddress, !event.way.isFederated { return .verificationRequired }
        return try levelDecision(user: user, amr: event.amr, requirements) ?? .proceed(
            Admission(user: user, amr: event.amr, authTime: clock.now, way: event.way))
    }

    /// Whether an existing session may answer `requirements` as it is: the hinted user, the
    /// freshness (`max_age`, `prompt=login` after the request was received), the domain (a local
    /// session of an address whose domain became `sso_required` no longer does) and the level.
    public func admit(_ session: ActiveSession, for requirements: SignInRequirements) throws -> SignInDecision {
        guard isFresh(session, for: requirements) else { return .freshSignIn }
        if !session.record.amr.contains("fed"), let realm = try realmRefusal(email: session.user.email, way: .password, connectionID: nil) {
            return .organizationIdP(realm)
        }
        if let step = try levelDecision(user: session.user, amr: session.record.amr, requirements) {
            return step == .unmet ? .freshSignIn : step
        }
        return .proceed(Admission(user: session.user, amr: session.record.amr, authTime: session.record.authTime, way: .session))
    }

    /// The `sso_required` rule alone, for an address before any account is found or made (a
    /// provider's email): the decision that refuses `way`, or nil.
    public func realmRefusal(email: String, way: SignInWay, connectionID: String?) throws -> HomeRealmDecision? {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let realm = try realms.decision(forEmail: trimmed)
        if way.isFederated, let connectionID { return realm.allowsProvider(connectionID) ? nil : realm }
        return realm.ssoRequired ? realm : nil
    }

    /// The freshness rules of a session against a request: `id_token_hint` names its user;
    /// `max_age`: `auth_time + max_age >= now`, or the user authenticated after the request was
    /// received; `prompt=login`: the user authenticated after the request was received (at the
    /// first decision, with nothing received yet, the caller handles `prompt=login`).
    public func isFresh(_ session: ActiveSession, for requirements: SignInRequirements) -> Bool {
        guard let request = requirements.request else { return true }
        if let hinted = request.hintedSubject, hinted != session.user.id { return false }
        let authTime = session.record.authTime
        let fresh = requirements.receivedAt.map { authTime >= $0 } ?? false
        if let maxAge = request.maxAge, !fresh, authTime.addingTimeInterval(TimeInterval(maxAge)) < clock.now { return false }
        if request.prompts(.login), requirements.receivedAt != nil, !fresh { return false }
        return true
    }

    /// The level the requirements need: the weakest known value of `acr_values`, raised to
    /// multi-factor by `mfa.required` or the client's `mfa_required`.
    public func requiredLevel(_ requirements: SignInRequirements) -> AuthenticationLevel {
        let requested = requirements.request.flatMap { AuthenticationLevel.requested($0.acrValueList) } ?? .password
        return mfaRequired || (requirements.client?.requiresMFA ?? false) ? max(requested, .multiFactor) : requested
    }

    /// The second factor, enrolment or unmet level a sign-in with `amr` still has before it, or
    /// nil when it is enough.
    private func levelDecision(user: UserRecord, amr: [String], _ requirements: SignInRequirements) throws -> SignInDecision? {
        let reached = AuthenticationLevel(amr: amr)
        let needed = requiredLevel(requirements)
        // Only a one-factor sign-in can owe a second factor: the factor is read for it alone.
        if reached < .multiFactor {
            let hasFactor = try secondFactors.totpFactor(userID: user.id)?.isConfirmed ?? false
            if hasFactor || needed == .multiFactor { return hasFactor ? .secondFactor : .enrolSecondFactor }
        }
        return reached < needed ? .unmet : nil
    }
}

extension SignInGate {
    /// Creates the gate from the server's parts, the domains' lookup and the account rule.
    public init(server: AuthorizationServer, realms: any HomeRealmLookup, requireVerifiedEmail: Bool) {
        self.init(secondFactors: server.storage.secondFactors, realms: realms, auditor: server.auditor, clock: server.clock,
                  mfaRequired: server.policy.mfaRequired, requireVerifiedEmail: requireVerifiedEmail)
    }
}
