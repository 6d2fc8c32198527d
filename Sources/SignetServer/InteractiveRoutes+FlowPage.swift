import SignetCore
import SignetHTTP
import SignetWire

/// What a flow page's form said: the user's choice, or the answer to a form that said nothing usable.
enum FlowFormChoice<Choice> {
    case chose(Choice)
    case refused(HTTPResponse)
}

extension InteractiveRoutes {
    /// `GET` of a page between the sign-in and the client (the consent and organization pages):
    /// the pending request of `?request=`, for a session that still satisfies it and reaches its
    /// level (else the sign-in page). `content` gets the request, the session and the form's
    /// hidden fields (the handle and its CSRF token) and returns the title and body, or nil when
    /// there is nothing to show (then the request is gone).
    func flowPage(_ request: HTTPRequest, _ errors: ErrorRenderer, label: String,
                  content: (PendingRequest, ActiveSession, _ hiddenFields: String) throws -> (title: String, body: String)?) -> HTTPResponse {
        guard let handle = request.query.first("request") else { return errors.requestGone() }
        return errors.continuing(label) {
            let pending = try flow.pending(handle: handle)
            guard let session = try flow.sessions.active(token: sessionToken(request)), try flow.meetsLevel(pending, session: session) else {
                return Self.local(Routes.signIn, [("request", handle)])
            }
            let browser = browserValue(request)
            let hidden = HTMLPage.hidden("request", handle) + "\n"
                + HTMLPage.hidden("csrf", csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
            guard let (title, body) = try content(pending, session, hidden) else { return errors.requestGone() }
            return HTMLPage.response(errors.page, title: title, body: body, formLeadsToClient: true, cookie: browser.cookie)
        }
    }

    /// `POST` of such a page: the form's handle and CSRF field checked, `parse` reads the choice,
    /// and `step` takes the flow on from the pending request and the browser's session.
    func flowSubmit<Choice>(_ request: HTTPRequest, _ errors: ErrorRenderer, label: String,
                            parse: (RequestParameters) -> FlowFormChoice<Choice>,
                            step: (PendingRequest, ActiveSession?, Choice) throws -> FlowStep) -> HTTPResponse {
        guard let form = Self.formFields(request), let handle = try? form.single("request") else {
            return errors.malformedForm()
        }
        guard csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        let choice: Choice
        switch parse(form) {
        case .chose(let chosen): choice = chosen
        case .refused(let response): return response
        }
        return errors.continuing(label) {
            let pending = try flow.pending(handle: handle)
            let session = try flow.sessions.active(token: sessionToken(request))
            return respond(try step(pending, session, choice), errors)
        }
    }
}
