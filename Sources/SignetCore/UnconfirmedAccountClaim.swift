import Foundation
import SignetStore

/// The pre-account-takeover rule: an account whose address was never confirmed may have been
/// made by someone who does not own the address (who then kept a password, a session, a passkey
/// or a second factor on it). When such an account is first proven by another channel — a mailed
/// code or link, a password reset, a provider that verified the address — everything made before
/// the proof goes, as a reset would end it: the password, the passkeys, the second factor and its
/// recovery codes, the provider links, every session, unredeemed code and grant; then the address
/// counts as confirmed. A confirmed account is left as it is (docs/accounts.md, "Accounts that
/// were never confirmed").
public struct UnconfirmedAccountClaim: Sendable {
    let storage: any SignetStorage
    let auditor: Auditor
    let clock: any Clock

    /// Applies the rule to `user`, proven just now by `proof` (`email_code`, `email_link`,
    /// `password_reset`, `fed:<connection>`); returns the account as it now is.
    @discardableResult
    public func claim(_ user: UserRecord, proof: String) throws -> UserRecord {
        guard !user.emailVerified else { return user }
        let now = clock.now
        if user.passwordHash != nil { try storage.users.setPassword(userID: user.id, passwordHash: nil, now: now) }
        let passkeys = try storage.passkeys.passkeys(userID: user.id)
        for passkey in passkeys { _ = try storage.passkeys.deletePasskey(id: passkey.id, userID: user.id) }
        let factor = try storage.secondFactors.removeSecondFactors(userID: user.id)
        let links = try storage.users.federatedIdentities(userID: user.id)
        for connectionID in Set(links.map(\.connectionID)) {
            _ = try storage.users.deleteFederatedIdentities(userID: user.id, connectionID: connectionID)
        }
        let sessions = try storage.sessions.endSessions(userID: user.id, now: now)
        _ = try storage.codes.deleteUnredeemedCodes(userID: user.id)
        let grants = try storage.refreshTokens.revokeGrants(userID: user.id, reason: RevokeReason.accountClaimed, now: now)
        try storage.users.updateProfile(userID: user.id, name: user.name, givenName: user.givenName, familyName: user.familyName,
                                        emailVerified: true, now: now)
        auditor.record("unconfirmed_account_claimed", subject: user.id, method: proof, detail: [
            "password": .bool(user.passwordHash != nil), "passkeys": .number(Double(passkeys.count)), "second_factor": .bool(factor),
            "links": .number(Double(links.count)), "sessions": .number(Double(sessions)), "grants": .number(Double(grants))])
        var claimed = try storage.users.user(id: user.id) ?? user
        claimed.emailVerified = true
        return claimed
    }
}

extension UnconfirmedAccountClaim {
    /// Takes its parts from the server.
    public init(server: AuthorizationServer) {
        self.init(storage: server.storage, auditor: server.auditor, clock: server.clock)
    }
}
