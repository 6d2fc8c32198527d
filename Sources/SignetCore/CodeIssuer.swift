import Foundation
import SignetStore

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
    /// starts a new grant family (`grantID`).
    public func issue(_ request: AuthorizationRequest, session: ActiveSession) throws -> String {
        let now = clock.now
        let code = tokens.make(.code)
        let record = AuthorizationCodeRecord(
            codeHash: tokens.hash(code), clientID: request.clientID, userID: session.user.id,
            redirectURI: request.redirectURI, scope: request.scope, codeChallenge: request.codeChallenge,
            nonce: request.nonce, resource: request.resource, authTime: session.record.authTime,
            sessionID: session.publicID, grantID: random.identifier(), payload: CodePayload(amr: session.record.amr).json,
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
