import Foundation
import SignetStore
import SignetWire

/// The refresh token grant (RFC 6749 §6) with rotation and family reuse detection
/// (RFC 9700 §4.14.2).
///
/// Every use rotates the token. The successor is derived from the presented token (an HMAC), so a
/// retry of the immediately previous token inside the grace window gets the same successor and the
/// family goes on: two refreshes racing from one app do not sign the user out, and there is never
/// a second live chain. Any other reuse revokes the whole family and is audited.
struct RefreshTokenGrant: GrantHandler {
    /// The user, read only when an ID token needs its claims.
    let users: any UserStore
    /// Token hashes, families and their tokens, successors and their lifetime, the response, reuse.
    let parts: TokenGrantParts
    /// How long a rotated token may be retried for the same successor, seconds.
    let graceSeconds: Int
    /// The current membership of a family's organization.
    let organizations: OrganizationSelection

    var grantType: GrantType { .refreshToken }
    let parameters = ["refresh_token", "scope", "resource"]

    func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse {
        try oauthErrors { try refresh(parameters, client: client) }
    }

    private func refresh(_ parameters: RequestParameters, client: Client) throws -> TokenResponse {
        let presented = try parameters.required("refresh_token")
        let requestedScope = try parameters.single("scope").map { text throws(OAuthError) in try Scope(parsing: text) }
        guard let locator = parts.tokens.refreshLocator(presented) else { throw OAuthError.invalidGrant("The refresh token is invalid.") }
        let presentedHash = parts.tokens.hash(presented)
        let now = parts.clock.now
        // A request that narrows is checked against the family inside the rotation's transaction,
        // before anything is written, so a refused one (invalid_scope, invalid_target) leaves the
        // token as it was. Scope and resources never change within a family, so the check holds
        // for the rotated token too.
        let narrows = requestedScope != nil || parameters.contains("resource")
        // The successor names the family as every new token does; a token issued before migration 19
        // names none, so its family is read from its row first (one more read, for those tokens only).
        let grantID: String
        if let named = locator.grantID {
            grantID = named
        } else if let legacy = try parts.refreshTokens.refreshToken(hash: presentedHash, grantID: nil) {
            grantID = legacy.grantID
        } else {
            throw OAuthError.invalidGrant("The refresh token is invalid, expired or revoked.")
        }
        var successor = parts.refreshMinter.successor(of: presented, grantID: grantID)
        let successorHash = parts.tokens.hash(successor)
        let rotation: Rotation
        // What the check computed, kept for the response: the rows it ran on are the rotation's
        // (the presented token and its family, read under the rotation's lock), so the scope and
        // audiences are the same ones, and need not be parsed twice.
        var checked: (scope: Scope, audiences: [String])?
        // An ID token needs the user's claims: unless the request narrows to a scope without
        // `openid`, the rotation's own read returns the user (no read of its own after the commit).
        let mayIssueIDToken = requestedScope?.contains(Scope.openID) ?? true
        switch try parts.refreshTokens.rotateRefreshToken(
            tokenHash: presentedHash, grantID: locator.grantID, clientID: client.id, successorHash: successorHash,
            successorExpiresAt: now.addingTimeInterval(parts.refreshMinter.lifetime(for: client)), now: now, graceSeconds: graceSeconds,
            withUser: mayIssueIDToken,
            check: { token, grant in
                guard narrows else { return }
                checked = try narrowed(token: token, grant: grant, requestedScope: requestedScope, parameters, client: client)
            }) {
        case .rotated(let result):
            rotation = result
        case .graceRetry(let result):
            // A token rotated before migration 19 got a successor naming no family; its retry gets that one again.
            if result.successor.tokenHash != successorHash {
                let earlier = locator.grantID == nil ? parts.refreshMinter.successorNamingNoFamily(of: presented) : nil
                guard let earlier, result.successor.tokenHash == parts.tokens.hash(earlier) else {
                    throw OAuthError.invalidGrant("The refresh token is invalid.", detail: "grace retry successor mismatch")
                }
                successor = earlier
            }
            rotation = result
        case .reuseDetected(let grant):
            parts.auditor.record("refresh_token_reuse", actor: "client:\(grant.clientID)", subject: grant.userID, client: grant.clientID,
                                 reason: "family_revoked", detail: ["grant": .string(grant.grantID)])
            throw OAuthError.invalidGrant("The refresh token was already used; the session has been revoked.")
        case .userDisabled: throw OAuthError.invalidGrant("The user is not active.")   // the store revoked the family
        case .revoked, .expired, .notFound, .clientMismatch:
            throw OAuthError.invalidGrant("The refresh token is invalid, expired or revoked.")
        }
        let (scope, audiences) = try checked ?? narrowed(token: rotation.presented, grant: rotation.grant,
                                                         requestedScope: requestedScope, parameters, client: client)
        // Disabling a user revokes its grants, so a live grant means an active user; the user
        // record is needed only when an ID token needs its claims (the hot path skips it), and
        // comes from the rotation's read, or is read here from a store that did not return it.
        var user: UserRecord?
        if scope.contains(Scope.openID) {
            guard let found = try rotation.user ?? users.user(id: rotation.grant.userID), found.disabledAt == nil else {
                try parts.refreshTokens.revokeGrant(id: rotation.grant.grantID, reason: "user_disabled", now: now)
                throw OAuthError.invalidGrant("The user is not active.")
            }
            user = found
        }
        // The family keeps the organization it was granted for, with the membership as it is now:
        // current roles; a user removed from it (or an organization deleted) ends the family, so
        // the app signs in again rather than holding tokens for an organization it left.
        var organization: OrganizationMembership?
        if let organizationID = rotation.grant.organizationID, scope.contains(Scope.organization) {
            guard let current = try organizations.current(organizationID: organizationID, userID: rotation.grant.userID) else {
                try parts.refreshTokens.revokeGrant(id: rotation.grant.grantID, reason: "organization_membership_ended", now: now)
                parts.auditor.record("grant_revoked", actor: "client:\(client.id)", subject: rotation.grant.userID, client: client.id,
                                     reason: "organization_membership_ended", detail: ["grant": .string(rotation.grant.grantID)])
                throw OAuthError.invalidGrant("The user is no longer a member of the organization.")
            }
            organization = current
        }
        let amr = rotation.grant.amr
        return try parts.responses.build(
            client: client, subject: rotation.grant.userID, user: user, scope: scope, grantID: rotation.grant.grantID,
            resources: audiences, nonce: nil, authTime: rotation.grant.authTime, amr: amr, sessionID: rotation.grant.sessionID,
            refreshToken: successor, organization: organization)
    }

    /// The scope and the access token's audiences of a refresh: RFC 6749 §6, the scope may narrow,
    /// never widen; RFC 8707 §2.2, the family's resources, or some of them, never another.
    private func narrowed(token: RefreshTokenRecord, grant: GrantRecord, requestedScope: Scope?,
                          _ parameters: RequestParameters, client: Client) throws(OAuthError) -> (Scope, [String]) {
        let grantedScope = (try? Scope(parsing: token.scope)) ?? Scope([String]())
        var scope = grantedScope
        if let requestedScope {
            guard requestedScope.isSubset(of: grantedScope) else {
                throw OAuthError(.invalidScope, "The requested scope exceeds the original grant.")
            }
            scope = requestedScope
        }
        return (scope, try ResourceIndicator.narrowed(grant.resources, parameters, client: client))
    }
}

extension RefreshTokenGrant {
    /// Takes its parts from the server.
    init(server: AuthorizationServer) {
        self.init(users: server.storage.users, parts: server.grantParts, graceSeconds: server.policy.refreshGrace,
                  organizations: OrganizationSelection(server: server))
    }
}
