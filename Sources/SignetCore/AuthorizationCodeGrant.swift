import Foundation
import SignetStore
import SignetWire

/// The token half of the authorization code flow (RFC 6749 §4.1.3, RFC 7636 §4.6).
struct AuthorizationCodeGrant: GrantHandler {
    /// Codes, consumed once.
    let codes: any AuthorizationCodeStore
    /// The code's user, which must still be active.
    let users: any UserStore
    /// Code hashes, the new grant family (revoked on a replayed code), its first refresh token,
    /// the response, code replays.
    let parts: TokenGrantParts
    /// The grant family's absolute lifetime, seconds.
    let familyLifetime: Int
    /// The current membership of the code's organization.
    let organizations: OrganizationSelection

    var grantType: GrantType { .authorizationCode }
    let parameters = ["code", "redirect_uri", "code_verifier", "resource"]

    func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse {
        try oauthErrors { try redeem(parameters, client: client) }
    }

    private func redeem(_ parameters: RequestParameters, client: Client) throws -> TokenResponse {
        let code = try parameters.required("code")
        let redirectURI = try parameters.single("redirect_uri")
        let verifier = try parameters.single("code_verifier")
        let now = parts.clock.now
        guard parts.tokens.hasShape(code, of: .code) else { throw OAuthError.invalidGrant("The code is invalid.") }
        let record: AuthorizationCodeRecord
        switch try codes.consumeCode(codeHash: parts.tokens.hash(code), now: now) {
        case .consumed(let consumed):
            record = consumed
        case .alreadyConsumed(let replayed):
            // RFC 6749 §4.1.2: a reused code revokes every token issued from it.
            try parts.refreshTokens.revokeGrant(issuedFrom: replayed, reason: RevokeReason.codeReplay, now: now)
            parts.auditor.record("code_replay", actor: "client:\(replayed.clientID)", subject: replayed.userID, client: replayed.clientID,
                                 reason: "family_revoked", detail: ["grant": .string(replayed.grantID)])
            throw OAuthError.invalidGrant("The code was already used.")
        case .expired, .notFound:
            throw OAuthError.invalidGrant("The code is invalid or expired.")
        }
        guard record.clientID == client.id else {
            throw OAuthError.invalidGrant("The code was issued to another client.", detail: "code of \(record.clientID) redeemed by \(client.id)")
        }
        guard redirectURI == record.redirectURI else {
            throw OAuthError.invalidGrant("redirect_uri does not match the authorization request.")
        }
        if let challenge = record.codeChallenge {
            guard let verifier else { throw OAuthError.invalidGrant("code_verifier is required.") }
            guard PKCE.verify(verifier: verifier, challenge: challenge) else {
                throw OAuthError.invalidGrant("code_verifier does not match the code_challenge.")
            }
        } else if verifier != nil {
            throw OAuthError.invalidGrant("code_verifier was sent for a request without code_challenge.")
        }
        guard let user = try users.user(id: record.userID), user.disabledAt == nil else {
            throw OAuthError.invalidGrant("The user is not active.")
        }
        // The organization's claims are the membership as it is now (roles may have changed since
        // the code was issued); a user no longer in it gets nothing (RFC 6749 §5.2 invalid_grant).
        var organization: OrganizationMembership?
        if let organizationID = record.organizationID {
            guard let current = try organizations.current(organizationID: organizationID, userID: user.id) else {
                throw OAuthError.invalidGrant("The user is no longer a member of the organization.")
            }
            organization = current
        }
        let scope = (try? Scope(parsing: record.scope)) ?? Scope([String]())
        // RFC 8707: the family keeps the resources of the request, so every refresh can use them.
        let granted = record.resource.map { $0.split(separator: " ").map(String.init) } ?? []
        let audiences = try ResourceIndicator.narrowed(granted, parameters, client: client)
        let amr = CodePayload(record.payload).amr
        let grant = GrantRecord(grantID: record.grantID, clientID: client.id, userID: user.id, scope: record.scope,
                                createdAt: now, absoluteExpiresAt: now.addingTimeInterval(TimeInterval(familyLifetime)),
                                sessionID: record.sessionID, authTime: record.authTime, payload: record.payload,
                                resources: granted, amr: amr, organizationID: record.organizationID)
        // The family and its first refresh token in one transaction: one commit, not two.
        let first = parts.refreshMinter.firstToken(grant: grant, client: client, scope: scope, now: now)
        do { try parts.refreshTokens.createGrant(grant, firstToken: first?.record) } catch StoreError.duplicate {
            // The code was replayed while this redemption was in flight; the family is revoked.
            throw OAuthError.invalidGrant("The code was already used.")
        }
        return try parts.responses.build(
            client: client, user: user, scope: scope, grantID: grant.grantID, resources: audiences, nonce: record.nonce,
            authTime: record.authTime, amr: amr, sessionID: record.sessionID, refreshToken: first?.token,
            organization: organization)
    }
}

extension AuthorizationCodeGrant {
    /// Takes its parts from the server.
    init(server: AuthorizationServer) {
        self.init(codes: server.storage.codes, users: server.storage.users, parts: server.grantParts,
                  familyLifetime: server.policy.refreshFamilyLifetime, organizations: OrganizationSelection(server: server))
    }
}
