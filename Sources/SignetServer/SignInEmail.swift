import SignetHTTP

/// The email typed into a sign-in that failed, kept for the form shown again: a `SealedCookie`
/// (the pending request's handle as associated data), short-lived and `SameSite=Strict`, so it
/// never appears in a URL, a log or the database, and a cookie from one sign-in request fills no
/// other request's form.
struct SignInEmail: Sendable {
    /// The longest email kept (RFC 5321 §4.5.3.1.3 limits a path to 256 octets).
    static let maximumBytes = 256
    /// How long the typed email is kept.
    static let lifetime = 600

    let sealed: SealedCookie

    init(browserKey: [UInt8], secure: Bool) {
        sealed = SealedCookie(browserKey: browserKey, purpose: "signet/sign-in-email", name: "signet_email", lifetime: Self.lifetime,
                              sameSite: .strict, maximumBytes: Self.maximumBytes, secure: secure)
    }

    var cookieName: String { sealed.name }

    /// The cookie that keeps `email` for the request `handle`; nil for an empty or oversized email.
    func cookie(keeping email: String, handle: String) -> SetCookie? { sealed.cookie(keeping: email, associatedData: handle) }

    /// The email kept for `handle` in this request's cookie, or nil.
    func email(_ request: HTTPRequest, handle: String) -> String? { sealed.text(request, associatedData: handle) }
}
