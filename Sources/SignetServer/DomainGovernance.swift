import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

/// Home-realm discovery and `sso_required` for the pages, the headless API and the provider
/// callback: one decision per email address (`HomeRealmDecision`) from the organizations' domain
/// claims and the configuration's `home_realm_domains`, and what follows a governed SSO sign-in
/// (linking an existing local account, disabling its password, just-in-time membership).
struct DomainGovernance: HomeRealmLookup {
    let claims: DomainClaims
    let federation: Federation
    let users: any UserStore
    let auditor: Auditor
    let clock: any Clock
    /// Adds a member idempotently (`OrganizationStore.addMember`); true when this call added it.
    let addMember: @Sendable (_ organizationID: String, _ userID: String, _ roles: [String]) throws -> Bool

    /// The role a just-in-time member gets.
    static let defaultRole = "member"

    /// Where `email` is sent. A store failure is thrown (the caller answers 500): a governed
    /// domain must not fall open to the local ways because its claim could not be read.
    func decision(forEmail email: String) throws -> HomeRealmDecision {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .local }
        let claim = try claims.claim(forEmail: trimmed)
        return HomeRealmDecision.decide(claim: claim, configured: federation.homeRealm.connectionID(forEmail: trimmed),
                                        isEnabled: { federation.enabledProvider($0) != nil })
    }

    /// The display name of a connection (its id when it is not configured).
    func connectionName(_ id: String) -> String {
        federation.connections.first { $0.id == id }?.displayName ?? id
    }

    /// The domain of an address, for the pages (as typed, normalized when possible).
    static func domain(_ email: String) -> String {
        DomainClaims.domain(ofEmail: email) ?? String(email.split(separator: "@").last ?? "")
    }

    /// After an SSO sign-in through `connectionID` whose upstream email `email` (verified by the
    /// provider) has a domain governed by that connection: makes the user a member of the
    /// domain's organization with the default role, and for `sso_required` disables the
    /// account's password. Nothing when the domain is not governed by this connection.
    func afterSignIn(userID: String, connectionID: String, email: String?, emailVerified: Bool) throws {
        guard let email, emailVerified else { return }
        let decision = try decision(forEmail: email)
        guard case .governed(let governing, let organizationID, let required) = decision, governing == connectionID else { return }
        if required, let user = try users.user(id: userID), user.passwordHash != nil {
            try users.setPassword(userID: userID, passwordHash: nil, now: clock.now)
            auditor.record("password_disabled", subject: userID, method: "fed:\(connectionID)", reason: "sso_required",
                           detail: ["organization": .string(organizationID)])
        }
        if try addMember(organizationID, userID, [Self.defaultRole]) {
            auditor.record("organization_member_jit", subject: userID, method: "fed:\(connectionID)",
                           detail: ["organization": .string(organizationID), "role": .string(Self.defaultRole)])
        }
    }
}

extension ErrorRenderer {
    /// The branded 403 page of an `sso_required` domain: why the way taken is refused, and a
    /// link on to the governing connection (`continueHref`) or back to the sign-in page.
    func ssoRequired(_ reason: DomainText, domain: String, connection: String, provider: String? = nil,
                     continueHref: String?, backHref: String?) -> HTTPResponse {
        let context = page
        let domainHTML = "<strong>\(HTMLPage.escape(domain))</strong>", connectionHTML = "<strong>\(HTMLPage.escape(connection))</strong>"
        let sentence = provider.map { context.html(reason, domainHTML, connectionHTML, HTMLPage.escape($0)) }
            ?? context.html(reason, domainHTML, connectionHTML)
        var body = "<p class=\"error\" role=\"alert\">\(sentence)</p>\n"
        if let continueHref {
            body += "<p><a class=\"provider\" href=\"\(HTMLPage.escape(continueHref))\">\(context.html(DomainText.continueWith, HTMLPage.escape(connection)))</a></p>\n"
        }
        if let backHref { body += "<p><a href=\"\(HTMLPage.escape(backHref))\">\(context.html(DomainText.backToSignIn))</a></p>\n" }
        return HTMLPage.response(context, title: context.text(DomainText.ssoRequiredTitle), body: body, status: 403)
    }
}
