import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

/// The pages people use on their own: sign-up, the mailed code and link, "forgot password" and
/// email sign-in (docs/accounts.md). Adapters only: each parses the form, calls SignetCore
/// (`UserService`, `EmailChallenges`) and renders a page or continues the pending request.
///
/// No enumeration: sign-up, reset and email sign-in answer an address with an account and one
/// without with the same redirect, page and work (a challenge row and one outbox mail each; the
/// sign-up hashes the password either way); only the mail differs.
struct SelfServiceRoutes: Sendable {
    let interactive: InteractiveRoutes
    let users: UserService
    let mailer: ChallengeMailer
    let accounts: SignetConfiguration.Accounts
    /// Longest display name accepted at sign-up, in characters.
    static let maximumNameLength = 200

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        self.users = interactive.signIn.users
        self.mailer = interactive.mailer
        self.accounts = application.environment.configuration.accounts
    }

    var challenges: EmailChallenges { mailer.challenges }

    // MARK: shared page parts

    /// The links the sign-in page shows under its form, per the `accounts` settings; recovery and
    /// email sign-in only when mail is configured.
    static func signInLinks(handle: String, client: Client, accounts: SignetConfiguration.Accounts, mail: Bool, page: PageContext) -> String {
        let query = "?" + FormEncoding.encode([("request", handle)])
        var links = ""
        if mail {
            links += "<p class=\"muted\"><a href=\"\(Routes.passwordForgot)\(HTMLPage.escape(query))\">\(page.html(RecoveryText.signInLink))</a></p>\n"
        }
        if mail && accounts.emailSignIn(for: client) {
            links += "<p class=\"muted\"><a href=\"\(Routes.emailSignIn)\(HTMLPage.escape(query))\">\(page.html(EmailSignInText.signInLink))</a></p>\n"
        }
        if accounts.signUp != .off {
            links += "<p class=\"muted\"><a href=\"\(Routes.signUp)\(HTMLPage.escape(query))\">\(page.html(SignUpText.signInLink))</a></p>\n"
        }
        return links
    }

    /// A new-password field with a show/hide toggle that needs no JavaScript: CSS cannot change an
    /// input's type, so "Show password" is a real submit button (`action=show`, `formnovalidate`)
    /// that posts the form and gets it back with the password in a text field; "Hide password"
    /// does the reverse. Nothing else is done on those posts. Keyboard and screen-reader users get
    /// an ordinary button; the cost is a round trip (the page is `no-store`).
    static func passwordField(label: String, value: String, visible: Bool, hint: String?, page: PageContext) -> String {
        var html = "<label for=\"password\">\(HTMLPage.escape(label))</label>\n"
        let type = visible ? "text" : "password"
        html += "<input id=\"password\" name=\"password\" type=\"\(type)\" autocomplete=\"new-password\" minlength=\"8\" maxlength=\"1024\" required"
        html += " spellcheck=\"false\" autocapitalize=\"off\""
        if hint != nil { html += " aria-describedby=\"password-hint\"" }
        html += " value=\"\(HTMLPage.escape(value))\">\n"
        if let hint { html += "<p id=\"password-hint\" class=\"muted\">\(HTMLPage.escape(hint))</p>\n" }
        let toggle = visible ? ("hide", page.html(SignUpText.hidePassword)) : ("show", page.html(SignUpText.showPassword))
        html += "<button type=\"submit\" class=\"link\" name=\"action\" value=\"\(toggle.0)\" formnovalidate aria-controls=\"password\">\(toggle.1)</button>\n"
        return html
    }

    /// Whether the form's `action` asks to show the password (nil: not a show/hide post).
    static func toggle(_ form: RequestParameters) -> Bool? {
        switch try? form.single("action") {
        case "show": return true
        case "hide": return false
        default: return nil
        }
    }

    /// A form's opening: the tag, the pending request (if any) and the CSRF field for `purpose`,
    /// then the email field (`autocomplete` `token`).
    func formStart(action: String, handle: String?, browserValue: String, purpose: String, emailLabel: String, email: String,
                   autocomplete: String) -> String {
        var html = "<form method=\"post\" action=\"\(action)\">\n"
        if let handle { html += HTMLPage.hidden("request", handle) + "\n" }
        html += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: browserValue, purpose: purpose)) + "\n"
        html += "<label for=\"email\">\(HTMLPage.escape(emailLabel))</label>\n"
        html += "<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"\(autocomplete)\" maxlength=\"\(EmailAddress.maximumBytes)\" required value=\"\(HTMLPage.escape(email))\">\n"
        return html
    }

    /// A muted paragraph with `lead` and a link back to the sign-in page of `handle` (nothing without one).
    static func backToSignIn(_ handle: String?, lead: String = "", label: String) -> String {
        guard let handle else { return "" }
        let back = Routes.signIn + "?" + FormEncoding.encode([("request", handle)])
        return "<p class=\"muted\">\(lead)<a href=\"\(HTMLPage.escape(back))\">\(HTMLPage.escape(label))</a></p>\n"
    }

    /// An error paragraph.
    static func errorParagraph(_ message: String) -> String {
        "<p class=\"error\" role=\"alert\">\(HTMLPage.escape(message))</p>\n"
    }

    /// A page that only says something (a dead code, another browser, done).
    static func notice(_ context: PageContext, _ title: some PageStrings, _ message: some PageStrings, link: (href: String, label: EmailChallengeText)? = nil,
                       status: Int = 200) -> HTTPResponse {
        var body = "<p>\(context.html(message))</p>\n"
        if let link { body += "<p><a href=\"\(HTMLPage.escape(link.href))\">\(context.html(link.label))</a></p>\n" }
        return HTMLPage.response(context, title: context.text(title), body: body, status: status)
    }

    /// The page for a code or link that no longer works (unknown, expired, used, out of attempts).
    func deadChallenge(_ context: PageContext, handle: String?) -> HTTPResponse {
        Self.notice(context, EmailChallengeText.deadTitle, EmailChallengeText.deadBody,
                    link: handle.map { (Routes.signIn + "?" + FormEncoding.encode([("request", $0)]), .startAgain) },
                    status: 410)
    }

    /// The page for too many codes.
    static func throttled(_ context: PageContext) -> HTTPResponse {
        var response = notice(context, EmailChallengeText.throttledTitle, EmailChallengeText.throttledBody, status: 429)
        response.headers.set("Retry-After", String(EmailChallenges.throttleWindow))
        return response
    }

    /// The optional `request` of a page or form: nil when absent, `.failure` when present but gone.
    func pendingRequest(_ handle: String?) throws -> Result<PendingRequest?, FlowError> {
        guard let handle, !handle.isEmpty else { return .success(nil) }
        do { return .success(try interactive.flow.pending(handle: handle)) } catch let error as FlowError {
            return .failure(error)
        }
    }

    /// A 303 to the code page of challenge `id`.
    static func toCodePage(_ id: String) -> HTTPResponse {
        InteractiveRoutes.local(Routes.emailCode, [("challenge", id)])
    }

    /// Sets the browser cookie on `response` when the browser had none.
    static func withCookie(_ response: HTTPResponse, _ cookie: SetCookie?) -> HTTPResponse {
        var response = response
        if let cookie { response.setCookie(cookie) }
        return response
    }
}
