import Foundation
import SignetStore
import SignetWire

/// Issues authorization codes (RFC 6749 §4.1.2): an `sgc_` token whose keyed hash is stored with
/// everything the token endpoint checks, for `policy.authorizationCodeLifetime` seconds.
public struct CodeIssuer: Sendable {
    let codes: any AuthorizationCodeStore
    let tokens: OpaqueTokens
    let clock: any Clock
    /// Grant ids.
    let random: any RandomSource
    /// A code's lifetime, seconds.
    let lifetime: Int

    /// A new code for a checked request and the session that authenticated the user. The code
    /// starts a new grant family (`grantID`). `organization`: the one the authorization chose
    /// (scope `organization`); without one the granted scope drops `organization` (RFC 6749 §3.3:
    /// the token response then names the scope issued).
    public func issue(_ request: AuthorizationRequest, session: ActiveSession,
                      organization: OrganizationMembership? = nil) throws -> String {
        let now = clock.now
        let code = tokens.make(.code)
        var scope = request.scope
        if organization == nil, request.parsedScope.contains(Scope.organization) {
            scope = Scope(request.parsedScope.tokens.filter { $0 != Scope.organization }).description
        }
        let terms = GrantTerms(
            clientID: request.clientID, userID: session.user.id, scope: scope,
            resources: request.resources, amr: session.record.amr,
            authTime: session.record.authTime, sessionID: session.publicID, organizationID: organization?.organization.id)
        let record = AuthorizationCodeRecord(
            codeHash: tokens.hash(code), grantID: random.identifier(), terms: terms, redirectURI: request.redirectURI,
            codeChallenge: request.codeChallenge, nonce: request.nonce,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        try codes.insertCode(record)
        return code
    }
}

extension CodeIssuer {
    /// Creates the issuer.
    public init(server: AuthorizationServer) {
        self.init(codes: server.storage.codes, tokens: server.tokens, clock: server.clock, random: server.random,
                  lifetime: server.policy.authorizationCodeLifetime)
    }
}
