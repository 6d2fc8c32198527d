import SignetWire

/// The mail Signet sends to the people who sign in, in plain text and HTML, carrying the
/// product's name. Codes and links appear only in the body (never in the subject, which mail
/// clients show in notifications and logs), and every inserted value is escaped in the HTML.
public enum AccountMail: Sendable, Equatable {
    /// Confirms an address after sign-up: a code, and a link that does the same.
    case verifyEmail(code: String, link: String, minutes: Int)
    /// Resets a forgotten password.
    case resetPassword(code: String, link: String, minutes: Int)
    /// Signs in without a password (an email code or a magic link).
    case signInCode(code: String, link: String, minutes: Int)
    /// Sent instead of a verification when someone signs up with an address that already has an
    /// account, so the form answers the same either way and the owner learns of it.
    case accountExists(signInLink: String, resetLink: String)
    /// Sent instead of a reset or sign-in code when the address has no account, so the form
    /// answers the same either way and the owner of the address learns why no code came.
    case noAccount(signUpLink: String?)
    /// Confirms that the account and its data were deleted.
    case accountDeleted
    /// Tells the old address that the account's email was changed.
    case emailChanged(newAddressHint: String)
    /// Confirms a new address a signed-in user asked to use instead of the old one.
    case confirmNewEmail(code: String, link: String, minutes: Int)
    /// Sent instead of `confirmNewEmail` when the new address already has an account, so the
    /// account page answers the same either way and the owner of the address learns of it.
    case emailInUse(signInLink: String)

    /// An address as the notice to the old one names it: the first character of the local part
    /// and the domain (`n…@example.com`), enough to recognise it, not to copy it.
    public static func addressHint(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"), let first = address.first, address.startIndex != at else { return "…" }
        return "\(first)…\(address[at...])"
    }
    /// Invites the address into an organization: a single-use link that works for `days` days.
    case organizationInvitation(organization: String, role: String, link: String, days: Int)
    /// Sent instead of a reset code when the address's domain is governed by an organization's
    /// SSO (`sso_required`): the organization signs it in through its identity provider
    /// (`connection`), so there is no password to reset; a link to the sign-in page, no code.
    case organizationSignIn(organization: String, connection: String, signInLink: String)
    /// Tells the account's address that a passkey was added, with a link to the passkeys page
    /// where one the owner did not add is removed.
    case passkeyAdded(manageLink: String)
    /// Tells the account's address that its TOTP factor locked after `failures` wrong codes in a
    /// row, and how to unlock it (a recovery code, or the operator).
    case totpLocked(failures: Int)

    /// Who the mail is from, as people read it: the same `Brand` as the pages (SignetWire), made
    /// from the `branding` settings (`SignetApplication.brand`).
    public typealias Brand = SignetWire.Brand

    /// The message to `to` from `from` in `words`' language, with the product's name as the
    /// sender's display name.
    public func message(brand: Brand, words: MailWords, from: MailAddress, to: MailAddress) -> MailMessage {
        let content = self.content(brand.productName, words)
        return MailMessage(from: from, fromName: brand.productName, to: to, subject: content.subject,
                           text: Self.text(content, brand: brand), html: Self.html(content, brand: brand, language: words.language))
    }

    /// What one mail says, before it is laid out as text or HTML.
    struct Content {
        var subject: String
        var intro: String
        var code: String?
        var action: (label: String, link: String)?
        var secondAction: (label: String, link: String)?
        var closing: String
    }

    /// The mail's words (`MailText` keys; `{1}` is the product's name).
    func content(_ product: String, _ words: MailWords) -> Content {
        switch self {
        case .verifyEmail(let code, let link, let minutes):
            return Content(subject: words(.verifySubject, product), intro: words(.verifyIntro, product, String(minutes)),
                           code: code, action: (words(.verifyAction), link), secondAction: nil, closing: words(.verifyClosing))
        case .resetPassword(let code, let link, let minutes):
            return Content(subject: words(.resetSubject, product), intro: words(.resetIntro, product, String(minutes)),
                           code: code, action: (words(.resetAction), link), secondAction: nil, closing: words(.resetClosing))
        case .signInCode(let code, let link, let minutes):
            return Content(subject: words(.signInSubject, product), intro: words(.signInIntro, product, String(minutes)),
                           code: code, action: (words(.signInAction), link), secondAction: nil, closing: words(.signInClosing))
        case .accountExists(let signInLink, let resetLink):
            return Content(subject: words(.existsSubject, product), intro: words(.existsIntro, product),
                           code: nil, action: (words(.signInAction), signInLink), secondAction: (words(.existsReset), resetLink),
                           closing: words(.existsClosing))
        case .noAccount(let signUpLink):
            return Content(subject: words(.noAccountSubject, product), intro: words(.noAccountIntro, product),
                           code: nil, action: signUpLink.map { (words(.noAccountSignUp), $0) }, secondAction: nil,
                           closing: words(.noAccountClosing))
        case .accountDeleted:
            return Content(subject: words(.deletedSubject, product), intro: words(.deletedIntro, product),
                           code: nil, action: nil, secondAction: nil, closing: words(.deletedClosing, product))
        case .emailChanged(let hint):
            return Content(subject: words(.changedSubject, product), intro: words(.changedIntro, product, hint),
                           code: nil, action: nil, secondAction: nil, closing: words(.changedClosing, product))
        case .confirmNewEmail(let code, let link, let minutes):
            return Content(subject: words(.newEmailSubject, product), intro: words(.newEmailIntro, product, String(minutes)),
                           code: code, action: (words(.newEmailAction), link), secondAction: nil, closing: words(.newEmailClosing))
        case .emailInUse(let signInLink):
            return Content(subject: words(.inUseSubject, product), intro: words(.inUseIntro, product),
                           code: nil, action: (words(.signInAction), signInLink), secondAction: nil, closing: words(.inUseClosing))
        case .organizationInvitation(let organization, let role, let link, let days):
            return Content(subject: words(.inviteSubject, product, organization),
                           intro: words(.inviteIntro, product, organization, role, String(days)),
                           code: nil, action: (words(.inviteAction), link), secondAction: nil,
                           closing: words(.inviteClosing, product, organization))
        case .organizationSignIn(let organization, let connection, let signInLink):
            return Content(subject: words(.ssoSubject, product), intro: words(.ssoIntro, product, organization, connection),
                           code: nil, action: (words(.signInAction), signInLink), secondAction: nil, closing: words(.ssoClosing))
        case .passkeyAdded(let manageLink):
            return Content(subject: words(.passkeyAddedSubject, product), intro: words(.passkeyAddedIntro, product),
                           code: nil, action: (words(.passkeyAddedAction), manageLink), secondAction: nil,
                           closing: words(.passkeyAddedClosing, product))
        case .totpLocked(let failures):
            return Content(subject: words(.totpLockedSubject, product), intro: words(.totpLockedIntro, product, String(failures)),
                           code: nil, action: nil, secondAction: nil, closing: words(.totpLockedClosing))
        }
    }

    static func text(_ content: Content, brand: Brand) -> String {
        var lines = [content.intro, ""]
        if let code = content.code { lines += ["    \(code)", ""] }
        if let action = content.action { lines += ["\(action.label): \(action.link)", ""] }
        if let second = content.secondAction { lines += ["\(second.label): \(second.link)", ""] }
        lines += [content.closing, "", "— \(brand.productName)"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func html(_ content: Content, brand: Brand, language: PageLanguage) -> String {
        let e = PageLayout.escape
        var body = "<p style=\"margin:0 0 16px\">\(e(content.intro))</p>"
        if let code = content.code {
            body += "<p style=\"margin:0 0 16px;font-size:28px;letter-spacing:6px;font-weight:700;font-family:ui-monospace,Menlo,Consolas,monospace\">\(e(code))</p>"
        }
        for action in [content.action, content.secondAction].compactMap({ $0 }) {
            body += "<p style=\"margin:0 0 16px\"><a href=\"\(e(action.link))\" style=\"display:inline-block;padding:10px 18px;border-radius:6px;"
                + "background:\(brand.accentColor);color:#ffffff;text-decoration:none;font-weight:600\">\(e(action.label))</a></p>"
        }
        body += "<p style=\"margin:0 0 16px;color:#5b6272\">\(e(content.closing))</p>"
        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark"><title>\(e(content.subject))</title></head>
            <body style="margin:0;padding:24px 12px;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2330">
            <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
            <p style="margin:0 0 16px;font-weight:700;font-size:18px">\(e(brand.productName))</p>
            \(body)
            </div></body></html>

            """
    }
}
