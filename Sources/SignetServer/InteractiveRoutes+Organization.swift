import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

extension InteractiveRoutes {
    /// `GET /signin/organization?request=…`: a user in several organizations picks the one a
    /// request for scope `organization` is for; each organization is a submit button of one form
    /// (no script), with Cancel.
    func organizationPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let handle = request.query.first("request") else { return errors.requestGone() }
        do {
            let pending = try flow.pending(handle: handle)
            guard let session = try flow.sessions.active(token: sessionToken(request)),
                  flow.satisfies(pending.request, session: session, authenticatedSince: pending.createdAt),
                  flow.meetsLevel(pending, session: session) else {
                return Self.local(Routes.signIn, [("request", handle)])
            }
            let choices = try flow.organizationChoices(pending, session: session)
            // Nothing to pick any more (the memberships changed since): a GET never issues a code,
            // so the app starts again.
            if choices.isEmpty { return errors.requestGone() }
            let browser = browserValue(request)
            let page = errors.page
            var body = "<p>\(page.html(OrganizationPickerText.intro, "<strong>\(HTMLPage.escape(pending.client.name))</strong>"))</p>\n"
            body += "<form method=\"post\" action=\"\(Routes.organizationPicker)\">\n"
            body += HTMLPage.hidden("request", handle) + "\n"
            body += HTMLPage.hidden("csrf", csrf.token(browserValue: browser.value, purpose: handle)) + "\n"
            for choice in choices {
                let roles = choice.member.roles.joined(separator: ", ")
                body += "<button type=\"submit\" class=\"choice\" name=\"organization\" value=\"\(HTMLPage.escape(choice.organization.id))\">"
                body += "<strong>\(HTMLPage.escape(choice.organization.name))</strong>"
                body += "<span class=\"muted\">\(HTMLPage.escape(choice.organization.slug))</span>"
                if !roles.isEmpty { body += "<span class=\"muted\">\(page.html(OrganizationPickerText.roles, HTMLPage.escape(roles)))</span>" }
                body += "</button>\n"
            }
            body += "<button type=\"submit\" name=\"decision\" value=\"cancel\" class=\"secondary\">\(page.html(OrganizationPickerText.cancel))</button>\n"
            body += "</form>\n"
            body += "<p class=\"muted\">\(page.html(OrganizationPickerText.signedInAs, HTMLPage.escape(session.user.email)))</p>\n"
            var response = HTMLPage.response(page, title: page.text(OrganizationPickerText.title), body: body, formLeadsToClient: true)
            if let cookie = browser.cookie { response.setCookie(cookie) }
            return response
        } catch is FlowError {
            return errors.requestGone()
        } catch {
            return errors.internalError("organization page", error)
        }
    }

    /// `POST /signin/organization`: the organization picked (its id; the membership is checked
    /// again by the flow), or Cancel, which sends `access_denied` to the client.
    func organizationSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = Self.formFields(request), let handle = try? form.single("request") else {
            return errors.malformedForm()
        }
        guard csrfValid(request, field: try? form.single("csrf"), purpose: handle) else { return errors.csrfFailure() }
        let chosen: String?
        if (try? form.single("decision")) == "cancel" {
            chosen = nil
        } else {
            // One well-formed organization; a repeated or odd value is a broken form, not a choice.
            guard let value = try? form.single("organization"), value.hasPrefix("org_"), OrganizationSelection.isWellFormed(value) else {
                return errors.render(.invalidRequest("Choose one organization."), message: errors.page.text(OrganizationPickerText.chooseOne))
            }
            chosen = value
        }
        do {
            let pending = try flow.pending(handle: handle)
            let session = try flow.sessions.active(token: sessionToken(request))
            return respond(try flow.chooseOrganization(pending, session: session, organizationID: chosen), errors)
        } catch is FlowError {
            return errors.requestGone()
        } catch {
            return errors.internalError("organization choice", error)
        }
    }
}
