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
    /// Invites the address into an organization: a single-use link that works for `days` days.
    case organizationInvitation(organization: String, role: String, link: String, days: Int)

    /// Who the mail is from, as people read it: the same `Brand` as the pages (SignetWire), made
    /// from the `branding` settings (`SignetApplication.brand`).
    public typealias Brand = SignetWire.Brand

    /// The message to `to` from `from`, with the product's name as the sender's display name.
    public func message(brand: Brand, from: MailAddress, to: MailAddress) -> MailMessage {
        let content = self.content(brand.productName)
        return MailMessage(from: from, fromName: brand.productName, to: to, subject: content.subject,
                           text: Self.text(content, brand: brand), html: Self.html(content, brand: brand))
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

    func content(_ product: String) -> Content {
        switch self {
        case .verifyEmail(let code, let link, let minutes):
            return Content(subject: "Confirm your email for \(product)",
                           intro: "Enter this code to confirm your email address for \(product). It works for \(minutes) minutes.",
                           code: code, action: ("Confirm my email", link), secondAction: nil,
                           closing: "If you did not create an account, you can ignore this mail; nothing happens without the code.")
        case .resetPassword(let code, let link, let minutes):
            return Content(subject: "Reset your \(product) password",
                           intro: "Someone asked to reset the password of your \(product) account. Enter this code to choose a new one. It works for \(minutes) minutes.",
                           code: code, action: ("Choose a new password", link), secondAction: nil,
                           closing: "If it was not you, ignore this mail: your password stays as it is.")
        case .signInCode(let code, let link, let minutes):
            return Content(subject: "Your \(product) sign-in code",
                           intro: "Enter this code to sign in to \(product). It works for \(minutes) minutes.",
                           code: code, action: ("Sign in", link), secondAction: nil,
                           closing: "If you did not try to sign in, ignore this mail; nobody can sign in without the code.")
        case .accountExists(let signInLink, let resetLink):
            return Content(subject: "You already have a \(product) account",
                           intro: "Someone tried to create a \(product) account with this email address, but you already have one.",
                           code: nil, action: ("Sign in", signInLink), secondAction: ("Reset my password", resetLink),
                           closing: "If it was not you, you can ignore this mail; your account has not changed.")
        case .noAccount(let signUpLink):
            return Content(subject: "About your \(product) sign-in",
                           intro: "Someone asked for a \(product) password reset or sign-in code for this email address, but no \(product) account uses it. Perhaps you signed up with another address.",
                           code: nil, action: signUpLink.map { ("Create an account", $0) }, secondAction: nil,
                           closing: "If it was not you, you can ignore this mail.")
        case .accountDeleted:
            return Content(subject: "Your \(product) account was deleted",
                           intro: "Your \(product) account and the data it held were deleted, as you asked.",
                           code: nil, action: nil, secondAction: nil,
                           closing: "If you did not ask for this, reply to the people who run \(product).")
        case .emailChanged(let hint):
            return Content(subject: "The email of your \(product) account changed",
                           intro: "The email address of your \(product) account was changed to \(hint).",
                           code: nil, action: nil, secondAction: nil,
                           closing: "If you did not make this change, contact the people who run \(product) at once.")
        case .organizationInvitation(let organization, let role, let link, let days):
            return Content(subject: "You are invited to \(organization) on \(product)",
                           intro: "You are invited to join \(organization) on \(product) as \(role). The link works once, for \(days) days, and only for this email address.",
                           code: nil, action: ("Accept the invitation", link), secondAction: nil,
                           closing: "If you do not know \(organization), you can ignore this mail; nothing happens unless you accept.")
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

    static func html(_ content: Content, brand: Brand) -> String {
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
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark"><title>\(e(content.subject))</title></head>
            <body style="margin:0;padding:24px 12px;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2330">
            <div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
            <p style="margin:0 0 16px;font-weight:700;font-size:18px">\(e(brand.productName))</p>
            \(body)
            </div></body></html>

            """
    }
}
