import SignetStore
import SignetWire

/// What the organization of a signed-in request (scope `organization`) comes to, before consent
/// and the code.
enum OrganizationGate {
    /// Go on, with this organization (nil: none asked, or the user is in none).
    case goOn(OrganizationMembership?)
    /// Refused: the request names an organization the user is not a member of (or none such).
    case refuse(OAuthError)
    /// The user is in several and the request names none: the organization page.
    case pick
}

extension AuthorizationFlow {
    /// The organization step of `request` for the signed-in `session`.
    func organizationGate(_ request: AuthorizationRequest, client: Client, session: ActiveSession) throws -> OrganizationGate {
        switch try organizations.decide(request, userID: session.user.id) {
        case .notRequested, .noMembership: return .goOn(nil)
        case .chosen(let membership): return .goOn(membership)
        case .pick: return .pick
        case .refused:
            auditor.record("organization_refused", actor: "user:\(session.user.id)", subject: session.user.id, client: client.id,
                           reason: "not_a_member")
            // RFC 6749 §4.1.2.1: the authorization server denied the request. One text for an
            // unknown organization and one the user is not in, so neither is told apart.
            return .refuse(OAuthError(.accessDenied, "The signed-in user is not a member of the requested organization."))
        }
    }

    /// The organizations the organization page offers for a pending request: the user's
    /// memberships, ordered by slug.
    public func organizationChoices(_ pending: PendingRequest, session: ActiveSession) throws -> [OrganizationMembership] {
        guard case .pick(let memberships) = try organizations.decide(pending.request, userID: session.user.id) else { return [] }
        return memberships
    }

    /// The user's answer on the organization page: `organizationID` picked (nil: the user
    /// cancelled, `access_denied`). Without a session that satisfies the request, the user signs
    /// in first. The pending request is used up and kept again, under a new handle, with the
    /// organization named, so the flow goes on (consent, then the code) as if the client had
    /// named it, and the membership is checked again there.
    public func chooseOrganization(_ pending: PendingRequest, session: ActiveSession?, organizationID: String?) throws -> FlowStep {
        guard let session, try meetsLevel(pending, session: session) else {
            return .signIn(requestHandle: pending.handle)
        }
        guard let organizationID else {
            let request = try consume(pending)
            return .error(OAuthError(.accessDenied, "The user did not choose an organization."),
                          redirectURI: request.redirectURI, state: request.state)
        }
        var request = try consume(pending)
        request.organization = organizationID
        let handle = try store(request, receivedAt: pending.createdAt)
        let next = PendingRequest(handle: handle, request: request, client: pending.client, createdAt: pending.createdAt)
        return try afterSignIn(next, session: session)
    }
}
