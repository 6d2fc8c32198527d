import Foundation
import SignetStore
import SignetWire

/// The token half of the authorization code flow (RFC 6749 §4.1.3, RFC 7636 §4.6).
struct AuthorizationCodeGrant: GrantHandler {
    /// Codes, consumed once.
    let codes: any AuthorizationCodeStore
    /// The code's user, which must still be active.
    let users: any UserStore
    /// Code hashes, the new grant family (revoked on a replayed code) and its end, its first
    /// refresh token, the response, code replays.
    let parts: TokenGrantParts
    /// The current membership of the code's organization.
    let organizations: OrganizationSelection

    var grantType: GrantType { .authorizationCode }
    let parameters = ["code", "redirect_uri", "code_verifier", "resource"]

    func handle(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> TokenResponse {
        try oauthErrors { try redeem(parameters, client: client) }
    }

    /// One commit for a good code: the code is read without a lock, checked, and then consumed in
    /// the transaction that stores its grant family and first refresh token
    /// (`AuthorizationCodeStore.redeemCode`). A code that fails a check is consumed on its own
    /// before the error is thrown, and a code that is not redeemable is handed to `consumeCode`,
    /// so every outcome is what consuming first and checking after would give.
    private func redeem(_ parameters: RequestParameters, client: Client) throws -> TokenResponse {
        let code = try parameters.required("code")
        let redirectURI = try parameters.single("redirect_uri")
        let verifier = try parameters.single("code_verifier")
        let now = parts.clock.now
        guard parts.tokens.hasShape(code, of: .code) else { throw OAuthError.invalidGrant("The code is invalid.") }
        let codeHash = parts.tokens.hash(code)
        guard let record = try codes.code(codeHash: codeHash), case .consumed = CodeConsumption.decide(record, now: now) else {
            _ = try consume(codeHash, now: now)
            throw OAuthError.invalidGrant("The code is invalid or expired.")   // not reached: consume throws
        }
        let redemption: Redemption
        do {
            redemption = try check(record, parameters, client: client, redirectURI: redirectURI, verifier: verifier, now: now)
        } catch {
            // RFC 6749 §4.1.2: a code is used once, also by a redemption that is refused.
            _ = try consume(codeHash, now: now)
            throw error
        }
        let outcome: CodeConsumption
        do {
            outcome = try codes.redeemCode(codeHash: codeHash, now: now, grant: redemption.grant,
                                           firstToken: redemption.first?.record)
        } catch StoreError.duplicate {
            // The family's id is taken (a replay of this code revoked it meanwhile).
            throw OAuthError.invalidGrant("The code was already used.")
        }
        // Redeemed by another request since the read: a replay, handled as `consume` handles it.
        guard case .consumed = outcome else { _ = try refuse(outcome, now: now); throw OAuthError.invalidGrant("The code was already used.") }
        return try parts.responses.build(
            client: client, user: redemption.user, scope: redemption.scope, grantID: redemption.grant.grantID,
            resources: redemption.audiences, nonce: record.nonce, authTime: record.authTime, amr: redemption.grant.amr,
            sessionID: record.sessionID, refreshToken: redemption.first?.token, organization: redemption.organization)
    }

    /// What a checked code gives: the family to store, its first refresh token, and the response's parts.
    private struct Redemption {
        let grant: GrantRecord
        let first: (token: String, record: RefreshTokenRecord)?
        let user: UserRecord
        let scope: Scope
        let audiences: [String]
        let organization: OrganizationMembership?
    }

    /// Consumes the code on its own (one transaction) and returns its record when this call
    /// consumed it; throws `invalid_grant` for every other outcome (a replay revokes its family).
    private func consume(_ codeHash: [UInt8], now: Date) throws -> AuthorizationCodeRecord {
        try refuse(try codes.consumeCode(codeHash: codeHash, now: now), now: now)
    }

    /// The record of a `.consumed` outcome; `invalid_grant` for the others.
    private func refuse(_ outcome: CodeConsumption, now: Date) throws -> AuthorizationCodeRecord {
        switch outcome {
        case .consumed(let consumed):
            return consumed
        case .alreadyConsumed(let replayed):
            // RFC 6749 §4.1.2: a reused code revokes every token issued from it.
            try parts.refreshTokens.revokeGrant(issuedFrom: replayed, reason: RevokeReason.codeReplay, now: now)
            parts.auditor.record("code_replay", actor: "client:\(replayed.clientID)", subject: replayed.userID, client: replayed.clientID,
                                 reason: "family_revoked", detail: ["grant": .string(replayed.grantID)])
            throw OAuthError.invalidGrant("The code was already used.")
        case .expired, .notFound:
            throw OAuthError.invalidGrant("The code is invalid or expired.")
        }
    }

    /// The checks of RFC 6749 §4.1.3 and RFC 7636 §4.6 on a code that is redeemable, and the
    /// family it would start.
    private func check(_ record: AuthorizationCodeRecord, _ parameters: RequestParameters, client: Client,
                       redirectURI: String?, verifier: String?, now: Date) throws -> Redemption {
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
        // RFC 8707: the family keeps the resources of the request, so every refresh can use them;
        // it keeps the code's terms whole (`amr` for the ID tokens of its refreshes).
        let audiences = try ResourceIndicator.narrowed(record.resources, parameters, client: client)
        let grant = GrantRecord(grantID: record.grantID, terms: record.terms,
                                createdAt: now, absoluteExpiresAt: parts.familyExpiry(startingAt: now))
        let first = parts.refreshMinter.firstToken(grant: grant, client: client, scope: scope, now: now)
        return Redemption(grant: grant, first: first, user: user, scope: scope, audiences: audiences, organization: organization)
    }
}

extension AuthorizationCodeGrant {
    /// Takes its parts from the server.
    init(server: AuthorizationServer) {
        self.init(codes: server.storage.codes, users: server.storage.users, parts: server.grantParts,
                  organizations: OrganizationSelection(server: server))
    }
}
