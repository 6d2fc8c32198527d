import SignetStore

/// Where home-realm discovery sends an email address, decided from what is known about its
/// domain, before any local choice (password, sign-up, another provider) is offered.
public enum HomeRealmDecision: Sendable, Equatable {
    /// No connection owns the domain: every way on the page stays open.
    case local
    /// The connection named by the configuration (`connections[].home_realm_domains`).
    case configured(connectionID: String)
    /// An organization's verified domain bound to a connection.
    case governed(connectionID: String, organizationID: String, ssoRequired: Bool)
    /// An organization's verified, bound `sso_required` domain whose connection is not enabled:
    /// nowhere to send the user, and every local way stays refused (fail closed).
    case unavailable(connectionID: String, organizationID: String)

    /// The connection to send the user to, if any.
    public var connectionID: String? {
        switch self {
        case .configured(let id), .governed(let id, _, _): id
        case .local, .unavailable: nil
        }
    }

    /// The connection that owns the domain, available or not (for the pages that name it).
    public var owningConnectionID: String? {
        switch self {
        case .configured(let id), .governed(let id, _, _), .unavailable(let id, _): id
        case .local: nil
        }
    }

    /// Whether password sign-in, sign-up and other providers are refused for the address.
    public var ssoRequired: Bool {
        switch self {
        case .governed(_, _, let required): required
        case .unavailable: true
        case .local, .configured: false
        }
    }

    /// Decides for one address. `claim` is the organization's claim on its domain, if any;
    /// `configured` the configuration's connection for the domain, if any; `isEnabled` whether a
    /// connection is configured, enabled and its provider ready. A verified, bound claim wins over
    /// the configuration (it is the organization's own, proven); an unverified or unbound claim
    /// governs nothing; a claim whose connection is off sends nobody there, and its `sso_required`
    /// still refuses the local ways.
    public static func decide(claim: OrganizationDomainRecord?, configured: String?,
                              isEnabled: (String) -> Bool) -> HomeRealmDecision {
        if let claim, claim.verifiedAt != nil, let connectionID = claim.connectionID {
            let required = requiresSSO(claim)
            if isEnabled(connectionID) {
                return .governed(connectionID: connectionID, organizationID: claim.organizationID, ssoRequired: required)
            }
            if required { return .unavailable(connectionID: connectionID, organizationID: claim.organizationID) }
        }
        if let configured, isEnabled(configured) { return .configured(connectionID: configured) }
        return .local
    }

    /// Whether a claim makes its domain `sso_required`: verified, bound to a connection, with that
    /// policy (whether the connection is on or not: `decide` fails closed either way).
    public static func requiresSSO(_ claim: OrganizationDomainRecord?) -> Bool {
        guard let claim, claim.verifiedAt != nil, claim.connectionID != nil else { return false }
        return claim.policy == .ssoRequired
    }

    /// Whether a sign-in through `connectionID` is allowed for the address: always, unless the
    /// domain is `sso_required` and `connectionID` is not its connection.
    public func allowsProvider(_ connectionID: String) -> Bool {
        switch self {
        case .governed(let governing, _, let required): !required || governing == connectionID
        case .unavailable(let governing, _): governing == connectionID
        case .local, .configured: true
        }
    }
}
