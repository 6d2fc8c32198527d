import SignetJOSE
import SignetStore
import SignetWire

/// The organization an authorization is for (scope `organization`, docs/organizations.md): the
/// one the request names (`organization=` an id or a slug), the user's only one, or the one the
/// user picks; and, on every later token, the user's current membership there.
///
/// A request naming an organization the user is not a member of, and one naming an organization
/// that does not exist, get the same refusal: the lookup goes through the user's own memberships,
/// so nothing tells a non-member whether it exists.
public struct OrganizationSelection: Sendable {
    let store: any OrganizationStore

    /// What a request for a signed-in user comes to.
    public enum Decision: Sendable, Equatable {
        /// The request did not ask for scope `organization`.
        case notRequested
        /// Asked for it, named none, and the user is in no organization: the authorization goes on
        /// without one (the granted scope drops `organization`).
        case noMembership
        /// This organization.
        case chosen(OrganizationMembership)
        /// Named none and the user is in several: the user picks on the organization page.
        case pick([OrganizationMembership])
        /// Named one the user is not a member of (or that does not exist).
        case refused
    }

    /// The longest `organization=` value: an id is `org_` and 20 characters, a slug at most 63.
    static let maximumParameterLength = 64
    private static let idBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Whether `value` has the shape of an organization's id (`org_` and lowercase letters and
    /// digits) or of a slug (`Organizations.checkSlug`).
    public static func isWellFormed(_ value: String) -> Bool {
        guard value.utf8.count <= maximumParameterLength else { return false }
        if value.hasPrefix("org_") {
            let rest = value.utf8.dropFirst(4)
            return !rest.isEmpty && rest.allSatisfy(idBytes.contains)
        }
        return (try? Organizations.checkSlug(value)) != nil
    }

    /// The decision for `request` and the signed-in `userID`.
    public func decide(_ request: AuthorizationRequest, userID: String) throws -> Decision {
        guard request.parsedScope.contains(Scope.organization) else { return .notRequested }
        let memberships = try store.memberships(userID: userID)
        if let named = request.organization {
            guard let found = memberships.first(where: { $0.organization.id == named || $0.organization.slug == named }) else {
                return .refused
            }
            return .chosen(found)
        }
        switch memberships.count {
        case 0: return .noMembership
        case 1: return .chosen(memberships[0])
        default: return .pick(memberships)
        }
    }

    /// The user's current membership of the organization `organizationID`, or nil when the user
    /// was removed from it or it was deleted.
    public func current(organizationID: String, userID: String) throws -> OrganizationMembership? {
        try store.memberships(userID: userID).first { $0.organization.id == organizationID }
    }

    /// The claims `org_id`, `org_slug` and `org_roles` of a membership, as SignetResource's
    /// `TokenOrganization` reads them.
    public static func claims(_ membership: OrganizationMembership) -> [String: JSONValue] {
        ["org_id": .string(membership.organization.id), "org_slug": .string(membership.organization.slug),
         "org_roles": .array(membership.member.roles.map(JSONValue.string))]
    }

    /// The claim names, for discovery's `claims_supported`.
    public static let claimNames = ["org_id", "org_slug", "org_roles"]
}

extension OrganizationSelection {
    /// Takes the organization store from the server.
    public init(server: AuthorizationServer) {
        self.init(store: server.storage.organizations)
    }
}
