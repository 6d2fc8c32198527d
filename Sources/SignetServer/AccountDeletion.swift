import Foundation
import SignetCore
import SignetFederation
import SignetJOSE
import SignetMail
import SignetSQL
import SignetStore
import SignetWire

/// Deletes an account: the one implementation behind the account page, `DELETE /account` and
/// `signet users delete`.
///
/// In one transaction (`SQLStores.transaction`) it deletes the user and everything that names it:
/// its grant families with their refresh tokens (so refresh tokens are unknown and access tokens
/// fail wherever the grant is checked), its sessions, codes, consents and linked identities; when
/// mail is configured, the "your account was deleted" mail to the address the account had goes
/// into the outbox in that same transaction, so the mail exists exactly when the deletion does.
/// Then it records `account_deleted` (no email). After the commit, for every linked Apple identity
/// whose token was kept at sign-in, it calls Apple's revocation endpoint (App Store Review
/// Guideline 5.1.1(v)). A failed call does not undo the deletion: it is logged without the token
/// and recorded as `upstream_revoke_failed` with the connection; it is not retried, since keeping a
/// deleted user's token to retry later would keep a secret of an account that no longer exists.
public struct AccountDeletion: Sendable {
    /// What a deletion did.
    public struct Outcome: Sendable, Equatable {
        /// Connections whose token Apple accepted to revoke.
        public var revoked: [String]
        /// Connections whose revocation failed (recorded in the audit log).
        public var revocationFailed: [String]
    }

    let storage: any SignetStorage
    let federation: Federation
    let vault: UpstreamTokenVault
    let auditor: Auditor
    /// The outbox, when mail is configured (`mail.smtp_url`); nil: no mail is written.
    let mail: MailQueue?
    let brand: Brand

    /// Creates the service over the environment's store and the configured connections.
    public init(environment: ServerEnvironment, federation: Federation) {
        self.storage = environment.storage
        self.federation = federation
        self.vault = UpstreamTokenVault(masterKey: environment.masterKey)
        self.auditor = Auditor(log: environment.storage.audit, clock: environment.clock, context: AuditContext.ofRequest)
        self.mail = environment.configuration.isMailConfigured ? environment.mail : nil
        self.brand = environment.configuration.brand()
    }

    /// Deletes the user `userID`; `via` (`page`, `api`, `cli`, `admin`) goes into the audit event,
    /// `actor` (an admin client) into its actor when given; the mail is written in `language`
    /// (the `Accept-Language` of the request that deleted the account; English from the CLI).
    /// Throws `UserServiceError` for an unknown user.
    @discardableResult
    public func delete(userID: String, via: String, actor: String? = nil, language: PageLanguage = .en) async throws -> Outcome {
        // Read before the rows go: the tokens live on the links the transaction deletes, the
        // address on the user row.
        let kept = try storage.users.upstreamTokens(userID: userID).compactMap { entry -> (String, RevocableToken)? in
            guard let token = vault.open(entry.sealed, for: entry.identity) else { return nil }
            return (entry.identity.connectionID, token)
        }
        guard let user = try storage.users.user(id: userID) else { throw UserServiceError("no such user") }
        // An address SMTP cannot carry (MailError, whose text holds no address) loses the mail,
        // never the deletion.
        let notice: OutboxMessageRecord?
        do { notice = try mail.map { try $0.seal(.accountDeleted, to: user.email, brand: brand, language: language) } } catch {
            Log.error("account deletion: the deleted-account mail could not be made: \(error)")
            notice = nil
        }
        let deleted: Bool
        if let sql = storage as? any SQLStorage {
            deleted = try sql.stores.transaction { db in
                // Only when this transaction deletes the row: a racing deletion that won mails once.
                guard try SQLUserStore.deleteUser(id: userID, on: db) else { return false }
                if let notice { try SQLMailOutbox.enqueue(notice, on: db) }
                return true
            }
        } else {
            deleted = try storage.users.deleteUser(id: userID)
            if deleted, let notice { try storage.mailOutbox.enqueue(notice) }
        }
        guard deleted else { throw UserServiceError("no such user") }
        if notice != nil { mail?.notifySender() }
        auditor.record("account_deleted", actor: actor, subject: userID, detail: ["via": .string(via)])
        var outcome = Outcome(revoked: [], revocationFailed: [])
        for (connectionID, token) in kept {
            guard let provider = federation.enabledProvider(connectionID), provider.revocationURL != nil else {
                Log.error("account deletion: connection \(connectionID) is not enabled; its Apple token was not revoked")
                auditor.record("upstream_revoke_failed", actor: actor, subject: userID, detail: ["connection": .string(connectionID),
                                                                                 "reason": .string("connection_unavailable")])
                outcome.revocationFailed.append(connectionID)
                continue
            }
            do throws(FederationError) {
                try await provider.revoke(token)
                auditor.record("upstream_token_revoked", actor: actor, subject: userID, detail: ["connection": .string(connectionID)])
                outcome.revoked.append(connectionID)
            } catch {
                Log.error("account deletion: revoking the token at \(connectionID) failed: \(error)")
                auditor.record("upstream_revoke_failed", actor: actor, subject: userID, detail: ["connection": .string(connectionID),
                                                                                 "reason": .string(FederationRoutes.reason(error))])
                outcome.revocationFailed.append(connectionID)
            }
        }
        return outcome
    }
}
