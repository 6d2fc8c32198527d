import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

extension InteractiveRoutes {
    /// `GET /signin/organization?request=…`: a user in several organizations picks the one a
    /// request for scope `organization` is for; each organization is a submit button of one form
    /// (no script), with Cancel.
    func organizationPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        flowPage(request, errors, label: "organization page") { pending, session, hidden in
            // Nothing to pick any more (the memberships changed since): a GET never issues a
            // code, so the request is gone and the app starts again.
            let choices = try flow.organizationChoices(pending, session: session)
            if choices.isEmpty { return nil }
            let page = errors.page
            var body = "<p>\(page.html(OrganizationPickerText.intro, "<strong>\(HTMLPage.escape(pending.client.name))</strong>"))</p>\n"
            body += "<form method=\"post\" action=\"\(Routes.organizationPicker)\">\n" + hidden
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
            return (page.text(OrganizationPickerText.title), body)
        }
    }

    /// `POST /signin/organization`: the organization picked (its id; the membership is checked
    /// again by the flow), or Cancel, which sends `access_denied` to the client.
    func organizationSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        flowSubmit(request, errors, label: "organization choice") { form -> FlowFormChoice<String?> in
            if (try? form.single("decision")) == "cancel" { return .chose(nil) }
            // One well-formed organization id; a repeated or odd value is a broken form, not a choice.
            guard let value = try? form.single("organization"), value.hasPrefix("org_"), OrganizationSelection.isWellFormed(value) else {
                return .refused(errors.render(.invalidRequest("Choose one organization."), message: errors.page.text(OrganizationPickerText.chooseOne)))
            }
            return .chose(value)
        } step: { pending, session, chosen in
            try flow.chooseOrganization(pending, session: session, organizationID: chosen)
        }
    }
}
