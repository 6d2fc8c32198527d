import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

/// The one place an `OAuthError` becomes an HTTP response: the status, the headers, and whether
/// it is a JSON body, a redirect to the client or a page, chosen by the kind of the route
/// (`RouteKind`) that the route table gave this renderer. Handlers never build an error
/// response themselves; they call `render`.
struct ErrorRenderer: Sendable {
    /// The kind of the route this renderer answers for.
    let kind: RouteKind
    /// The route's path, for the log line of a `server_error`.
    let route: String
    /// The issuer, sent as `iss` with every error redirect (RFC 9207).
    let issuer: String
    /// The brand of the error pages.
    var assets = BrandAssets()
    /// The language of the error pages: the request's (`answering(_:)`), English until bound.
    var language = PageLanguage.en

    /// This renderer for `request`: its pages in the request's language. The route table binds
    /// every page and authorization route's renderer to the request it answers.
    func answering(_ request: HTTPRequest) -> ErrorRenderer {
        var bound = self
        bound.language = PageContext(assets: assets, request: request).language
        return bound
    }

    /// The brand and language of this route's pages, for the handler's own pages.
    var page: PageContext { PageContext(assets: assets, language: language) }

    /// The response for `error` on this route.
    /// - `redirect`: the client's verified redirect URI, for an `.authorization` route once the
    ///   request is checked; without one, the error is a page. Ignored by the other kinds.
    /// - `status`: replaces the code's status (429 for a rate limit, a page's 403, 404 or 502).
    /// - `title`: a page's heading (already in the page's language).
    /// - `message`: what a page says instead of the error's description (which stays English in
    ///   JSON and redirects: it is for developers, RFC 6749 §4.1.2.1).
    /// - `retryAfter`: seconds, sent as `Retry-After` (RFC 9110 §10.2.3).
    func render(_ error: OAuthError, redirect: VerifiedRedirect? = nil, status: Int? = nil, title: String? = nil,
                message: String? = nil, retryAfter: Int? = nil) -> HTTPResponse {
        if Self.isUnavailable(error) {
            // RFC 6749 §4.1.2.1 / RFC 9110 §15.6.4: a database out of reach is a retry, not a failure.
            Log.warning("\(route): \(error)")
            return render(OAuthError(.temporarilyUnavailable, Self.unavailableDescription, detail: error.privateDetail), redirect: redirect,
                          retryAfter: Self.unavailableRetryAfter)
        }
        if error.code == .serverError { Log.error("\(route): \(error)") }
        var response: HTTPResponse
        switch kind {
        case .api(let authentication):
            response = Self.json(error, authentication: authentication, status: status)
        case .authorization:
            if let redirect {
                response = OAuthResponses.redirect(to: redirect, parameters: Self.errorParameters(error), issuer: issuer)
            } else {
                response = page(error, title: title, message: message, status: status)
            }
        case .page:
            response = page(error, title: title, message: message, status: status)
        case .script:
            let body = ScriptErrorResponse(error: error.code.rawValue, errorDescription: error.publicDescription,
                                           message: error.userMessage?.text(language))
            response = OAuthResponses.json(encoding: body, status: status ?? Self.status(for: error.code, authentication: .none))
            response.headers.set("Vary", "Accept-Language")
        case .admin:
            let code = error.code == .serverError ? "server_error" : error.code == .temporarilyUnavailable ? "temporarily_unavailable" : "invalid_request"
            let fallback = error.code == .serverError ? AdminError.serverError.message : "The request is invalid."
            response = Self.admin(AdminError(status: status ?? Self.status(for: error.code, authentication: .none), error: code,
                                             field: nil, message: error.publicDescription ?? fallback))
        }
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    /// An inline handler whose thrown `OAuthError`s are rendered by this route's kind.
    func sync(_ body: @escaping @Sendable (HTTPRequest) throws(OAuthError) -> HTTPResponse) -> HTTPHandler {
        .sync { request in
            do throws(OAuthError) { return try body(request) } catch { return render(error) }
        }
    }

    /// Seconds a client or load balancer should wait before retrying while the database is out of reach.
    static let unavailableRetryAfter = 5
    static let unavailableDescription = "The service is temporarily unavailable; try again in a few seconds."

    /// A `server_error` whose cause is the store's `.unavailable` (its description, kept in the
    /// private detail by whichever layer turned the store's error into an `OAuthError`).
    static func isUnavailable(_ error: OAuthError) -> Bool {
        error.code == .serverError && error.privateDetail?.contains(StoreError.unavailableMarker) == true
    }

    /// A failure that is not an `OAuthError` (a store that failed, …): `server_error`, with the
    /// cause in the log only (`temporarily_unavailable` when the store is out of reach).
    func internalError(_ context: String, _ error: any Error) -> HTTPResponse {
        render(.serverError(detail: "\(context): \(error)"))
    }

    // MARK: JSON

    /// The HTTP status of an error at a JSON API (RFC 6749 §5.2, RFC 6750 §3.1).
    static func status(for code: OAuthErrorCode, authentication: APIAuthentication) -> Int {
        switch code {
        // RFC 6749 §5.2: 401 with the challenge of the scheme the client may use; a route without
        // client authentication has no scheme to challenge, and a 401 needs one (RFC 9110 §15.5.2).
        case .invalidClient: authentication == .client ? 401 : 400
        case .invalidToken: 401
        case .insufficientScope: 403
        case .serverError: 500
        case .temporarilyUnavailable: 503
        default: 400
        }
    }

    private static func json(_ error: OAuthError, authentication: APIAuthentication, status: Int?) -> HTTPResponse {
        var response = json(ErrorResponse(error), status: status ?? Self.status(for: error.code, authentication: authentication))
        switch authentication {
        case .client where error.code == .invalidClient:
            // RFC 6749 §5.2: invalid_client with 401 carries the Basic challenge.
            response.headers.set("WWW-Authenticate", #"Basic realm="signet", charset="UTF-8""#)
        case .bearer:
            // RFC 6750 §3: the challenge carries the error code (and its description).
            var challenge = #"Bearer realm="signet", error="\#(error.code.rawValue)""#
            if let description = error.publicDescription { challenge += #", error_description="\#(description)""# }
            response.headers.set("WWW-Authenticate", challenge)
        default: break
        }
        return response
    }

    /// An RFC 6749 §5.2 error body with `Cache-Control: no-store` (and `Pragma: no-cache`), for
    /// an `OAuthError` or one of the server's own codes (`not_found`, `method_not_allowed`).
    static func json(_ body: ErrorResponse, status: Int) -> HTTPResponse {
        OAuthResponses.json(encoding: body, status: status)
    }

    /// A `.script` route's error body: RFC 6749 §5.2's members, and the person's words in the
    /// page's language (`error_description` must stay ASCII, §5.2, and is the developer's).
    struct ScriptErrorResponse: Encodable {
        let error: String
        let errorDescription: String?
        let message: String?
        enum CodingKeys: String, CodingKey { case error, errorDescription = "error_description", message }
    }

    /// RFC 6750 §3.1: a request without any token gets the bare challenge, no error code.
    func missingBearerToken() -> HTTPResponse {
        var response = HTTPResponse.empty(status: 401)
        response.headers.set("WWW-Authenticate", #"Bearer realm="signet""#)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// RFC 9470 §3: the token is good but its sign-in is not recent or strong enough: 401
    /// `insufficient_user_authentication`, the challenge naming `max_age` and `acr_values`, so
    /// the app signs in again with them (SignetKit's `StepUpChallenge`).
    func insufficientUserAuthentication(_ description: String, acrValues: [String], maxAge: Int?) -> HTTPResponse {
        var response = Self.json(ErrorResponse(error: "insufficient_user_authentication", errorDescription: description), status: 401)
        var challenge = #"Bearer realm="signet", error="insufficient_user_authentication", error_description="\#(description)""#
        if !acrValues.isEmpty { challenge += #", acr_values="\#(acrValues.joined(separator: " "))""# }
        if let maxAge { challenge += #", max_age="\#(maxAge)""# }
        response.headers.set("WWW-Authenticate", challenge)
        return response
    }

    // MARK: admin

    /// An admin API refusal: `{error, field, message}` with `no-store`; a 401 or 403 carries the
    /// `Bearer` challenge (RFC 6750 §3: no error code when no token was sent at all).
    static func admin(_ error: AdminError) -> HTTPResponse {
        var object: [String: JSONValue] = ["error": .string(error.error), "message": .string(error.message)]
        if let field = error.field { object["field"] = .string(field) }
        var response = HTTPResponse.json(JSONValue.object(object).serialized(), status: error.status)
        response.headers.set("Cache-Control", "no-store")
        if error.status == 503 { response.headers.set("Retry-After", String(unavailableRetryAfter)) }
        if error.status == 401 || error.status == 403 {
            var challenge = #"Bearer realm="signet-admin""#
            if error.error != AdminError.missingToken.error {
                challenge += #", error="\#(error.error)""#
                if let scope = error.scope { challenge += #", scope="\#(scope)""# }
            }
            response.headers.set("WWW-Authenticate", challenge)
        }
        return response
    }

    /// An admin handler whose thrown `AdminError`s are rendered; any other error is logged and
    /// answered as `AdminError.failure` (`server_error`, or 503 while the store is out of reach).
    func admin(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> @Sendable (HTTPRequest) -> HTTPResponse {
        { [route] request in
            do { return try body(request) } catch let error as AdminError {
                if error.status >= 500 { Log.error("\(route): \(error)") }
                return Self.admin(error)
            } catch {
                return Self.adminFailure(error, route: route)
            }
        }
    }

    /// An admin handler's failure that is not an `AdminError`, logged and answered as `AdminError.failure`.
    static func adminFailure(_ error: any Error, route: String) -> HTTPResponse {
        let failure = AdminError.failure(error)
        if failure.status == 503 { Log.warning("\(route): \(error)") } else { Log.error("\(route): \(error)") }
        return admin(failure)
    }

    /// `admin(_:)` for a handler that awaits.
    func adminAwaiting(_ body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) -> @Sendable (HTTPRequest) async -> HTTPResponse {
        { [route] request in
            do { return try await body(request) } catch let error as AdminError {
                if error.status >= 500 { Log.error("\(route): \(error)") }
                return Self.admin(error)
            } catch {
                return Self.adminFailure(error, route: route)
            }
        }
    }

    // MARK: redirect

    /// RFC 6749 §4.1.2.1: `error` and `error_description`; `state` and `iss` are added by the redirect.
    private static func errorParameters(_ error: OAuthError) -> [(String, String)] {
        var parameters = [("error", error.code.rawValue)]
        if let description = error.publicDescription { parameters.append(("error_description", description)) }
        return parameters
    }

    // MARK: page

    /// A page's status: the given one, else 500 for `server_error`, 503 for
    /// `temporarily_unavailable`, 400 for the rest.
    private func page(_ error: OAuthError, title: String?, message: String?, status: Int?) -> HTTPResponse {
        let page = self.page
        let text: String, heading: String, code: Int
        switch error.code {
        case .serverError:
            // The detail stays in the log; the page says only that it was our fault.
            (text, heading, code) = (page.text(ErrorText.serverError), title ?? page.text(ErrorText.serverErrorTitle), status ?? 500)
        case .temporarilyUnavailable:
            (text, heading, code) = (message ?? error.publicDescription ?? page.text(ErrorText.tryAgainLater),
                                     title ?? page.text(ErrorText.tryAgainLaterTitle), status ?? 503)
        default:
            (text, heading, code) = (message ?? error.publicDescription ?? page.text(ErrorText.invalidRequest),
                                     title ?? page.text(ErrorText.invalidRequestTitle), status ?? 400)
        }
        let body = "<p>\(HTMLPage.escape(text))</p>\n<p class=\"muted\">\(page.html(ErrorText.goBack))</p>"
        return HTMLPage.response(page, title: heading, body: body, status: code)
    }
}

extension ErrorRenderer {
    /// A pending request that is unknown, expired or already used.
    func requestGone() -> HTTPResponse {
        render(.invalidRequest("This sign-in request has expired or was already used."), title: page.text(ErrorText.requestGoneTitle),
               message: page.text(ErrorText.requestGone))
    }

    /// A failed CSRF check.
    func csrfFailure() -> HTTPResponse {
        render(OAuthError(.accessDenied, "The form could not be verified. Make sure cookies are enabled."), status: 403,
               title: page.text(ErrorText.formExpiredTitle), message: page.text(ErrorText.formExpired))
    }

    /// A form body that is not form encoding or lacks its fields.
    func malformedForm() -> HTTPResponse {
        render(.invalidRequest("The form is malformed."), message: page.text(ErrorText.malformedForm))
    }
}
