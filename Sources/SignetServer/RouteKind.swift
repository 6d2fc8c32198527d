/// How a route answers, and so how its errors are rendered (`ErrorRenderer`). Each route's kind
/// is written once, on its line of the route table (`SignetApplication+RouteTable.swift`).
enum RouteKind: Sendable, Equatable {
    /// A JSON API (token, revocation, introspection, userinfo, the headless API, …): errors are
    /// RFC 6749 §5.2 JSON bodies with `Cache-Control: no-store`.
    case api(APIAuthentication)
    /// A step of the authorization flow (`/authorize`, and every page submission or provider
    /// callback that may end it): an error goes to the client's verified redirect URI with
    /// `state` and `iss` (RFC 9207); while none is verified, it is a page (RFC 6749 §4.1.2.1).
    case authorization
    /// A page for a person (sign-in, consent, logout, the federation pages): errors are pages.
    case page
    /// JSON that a page's own script calls (the browser's passkey ceremonies): errors are
    /// RFC 6749 §5.2 bodies as for `.api(.none)`, plus `message`, the error's words for the person
    /// (`OAuthError.userMessage`) in the request's language (`Accept-Language`, as the page's),
    /// which the script shows. Bound to each request like a page.
    case script
    /// The admin listener's JSON API (`/admin/v1`) and probes: errors are `AdminError` bodies
    /// `{error, field, message}`, with an RFC 6750 `Bearer` challenge on 401 and 403.
    case admin
}

/// How the callers of a JSON API authenticate; decides the challenge of a 401.
enum APIAuthentication: Sendable, Equatable {
    /// Client authentication (RFC 6749 §2.3): `invalid_client` is 401 with a `Basic` challenge.
    case client
    /// A bearer token (RFC 6750 §3): every error carries a `Bearer` challenge.
    case bearer
    /// None: there is no scheme to challenge, so `invalid_client` is a plain 400.
    case none
}
