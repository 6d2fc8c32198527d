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
        let record = AuthorizationCodeRecord(
            codeHash: tokens.hash(code), clientID: request.clientID, userID: session.user.id,
            redirectURI: request.redirectURI, scope: scope, codeChallenge: request.codeChallenge,
            nonce: request.nonce, resource: request.resource, authTime: session.record.authTime,
            sessionID: session.publicID, grantID: random.identifier(), payload: CodePayload(amr: session.record.amr).json,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)), organizationID: organization?.organization.id)
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
