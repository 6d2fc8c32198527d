import Foundation
import SignetCore
import SignetHTTP
import SignetMail
import SignetStore
import SignetWire

/// Makes an organization invitation's mail (the link from the configured issuer, never from a
/// request's `Host`) and seals it for the outbox, so `Organizations.invite` and `resend` store it
/// in the invitation's own transaction; then rings the sender.
public struct InvitationMailer: Sendable {
    let queue: MailQueue
    let issuer: String
    let brand: AccountMail.Brand
    let days: Int

    /// The mailer of an environment's outbox, issuer, brand and invitation lifetime.
    public init(environment: ServerEnvironment) {
        queue = environment.mail
        issuer = environment.configuration.issuer
        brand = environment.configuration.brand()
        days = max(1, environment.configuration.organizations.invitationLifetime / 86_400)
    }

    /// The link of an invitation token.
    func link(_ token: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + Routes.invitation + "?" + FormEncoding.encode([("token", token)])
    }

    /// The `mail:` argument of `Organizations.invite` and `resend` for `organization`, written in
    /// `language` (English unless the caller knows the invitee's: an operator's request is not theirs).
    public func mail(for organization: OrganizationRecord, language: PageLanguage = .en)
        -> (String, OrganizationInvitationRecord) throws -> OutboxMessageRecord? {
        { token, invitation in
            let letter = AccountMail.organizationInvitation(organization: organization.name, role: invitation.role,
                                                            link: link(token), days: days)
            return try queue.seal(letter, to: invitation.email, brand: brand, language: language)
        }
    }

    /// Tells the sender thread there is mail.
    public func notify() { queue.notifySender() }
}
