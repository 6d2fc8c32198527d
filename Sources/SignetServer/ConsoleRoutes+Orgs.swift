import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

/// The console's organizations (docs/organizations.md): the list and a create form, and one
/// organization's members, invitations and domain claims. Every change is the admin API's
/// operation through `AdminService` (its rules, its audit events), under that operation's scope.
extension ConsoleRoutes {
    static let orgs = "/console/orgs"
    static let org = "/console/orgs/{id}"
    static let orgAction = "/console/orgs/{id}/{action}"
    static let orgItem = "/console/orgs/{id}/{kind}/{item}"

    /// The refusal of a form as the field and what is wrong, beside the form.
    static func problem(_ page: PageContext, _ error: AdminError) -> String {
        "<p class=\"error\" role=\"alert\" id=\"form-error\">" + page.html(ConsoleText.fieldProblem,
            "<code>\(esc(error.field ?? "-"))</code>", esc(error.message)) + "</p>\n"
    }

    /// An input marked invalid when `problem` names `field`.
    static func input(_ id: String, _ name: String, _ label: String, value: String = "", type: String = "text",
                      problem: AdminError?, extra: String = "") -> String {
        let invalid = problem?.field == name ? " aria-invalid=\"true\" aria-describedby=\"form-error\"" : ""
        return "<label for=\"\(id)\">\(esc(label))</label>\n<input id=\"\(id)\" name=\"\(name)\" type=\"\(type)\" value=\"\(esc(value))\"\(invalid)\(extra)>\n"
    }

    // MARK: list

    /// `GET /console/orgs`: the organizations, and (write role) the create form.
    func orgsPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors, showing: "listOrganizations", section: .orgs) { op, page in
            try orgsList(op, page, notice: Self.notice(request, page), name: "", slug: "", problem: nil)
        }
    }

    func orgsList(_ op: Operator, _ page: PageContext, notice: String, name: String, slug: String, problem: AdminError?, status: Int = 200) throws -> HTTPResponse {
        var body = notice
        let found = try op.service.organizations(limit: 200, cursor: nil, filter: nil).items
        if found.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noOrgs)))</p>\n" }
        else {
            body += "<div class=\"table\"><table id=\"orgs\">\n<thead><tr><th>\(esc(page.text(ConsoleText.orgName)))</th><th>\(esc(page.text(ConsoleText.orgSlug)))</th></tr></thead>\n<tbody>\n"
            for org in found {
                let id = org["id"]?.stringValue ?? ""
                body += "<tr><td><a href=\"\(esc(Self.path(Self.org, id)))\">\(esc(org["name"]?.stringValue ?? id))</a></td>"
                    + "<td><code>\(esc(org["slug"]?.stringValue ?? ""))</code></td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        if op.may("createOrganization") {
            body += "<section id=\"new-org\">\n<h2>\(esc(page.text(ConsoleText.newOrgHeading)))</h2>\n" + (problem.map { Self.problem(page, $0) } ?? "")
                + Self.form(Self.orgs, op, Self.input("org-name", "name", page.text(ConsoleText.orgName), value: name, problem: problem, extra: " maxlength=\"200\" required")
                            + Self.input("org-slug", "slug", page.text(ConsoleText.orgSlug), value: slug, problem: problem, extra: " maxlength=\"63\" required"),
                            button: page.text(ConsoleText.createOrg))
                + "</section>\n"
        }
        return render(op, page, section: .orgs, title: page.text(ConsoleText.orgsTitle), body: body, status: status)
    }

    /// `POST /console/orgs`: `createOrganization`'s rules; a refusal shows the form again with the
    /// field named and nothing created.
    func createOrgSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submit(request, errors, operation: "createOrganization") { op, form in
            let name = Self.field(form, "name"), slug = Self.field(form, "slug")
            do {
                let created = try op.service.mapped {
                    try op.service.organizations.create(slug: slug, name: name, logoURL: nil, owner: nil, actor: op.service.actor)
                }
                return Self.back(Self.path(Self.org, created.id), ConsoleNotice.orgCreated.rawValue)
            } catch let error as AdminError where error.status == 400 || error.status == 409 {
                return try orgsList(op, errors.page, notice: "", name: name, slug: slug, problem: error, status: error.status)
            }
        }
    }

    /// A form field, trimmed ("" when missing or repeated).
    static func field(_ form: RequestParameters, _ name: String) -> String {
        (((try? form.single(name)) ?? nil) ?? "").trimmingCharacters(in: .whitespaces)
    }

    // MARK: one organization

    /// `GET /console/orgs/{id}`: members, invitations and domains, with (write role) their forms.
    func orgPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        page(request, errors, showing: "getOrganization", section: .orgs) { op, page in
            try orgDetail(op, page, org: try op.service.organization(try AdminRequest.id(request)), notice: Self.notice(request, page), problem: nil)
        }
    }

    func orgDetail(_ op: Operator, _ page: PageContext, org: OrganizationRecord, notice: String, problem: AdminError?,
                   form: RequestParameters? = nil, status: Int = 200) throws -> HTTPResponse {
        let write = op.may("addOrganizationMember")
        let roles = try op.service.organizations.roles(org)
        func roleSelect(_ id: String, selected: String) -> String {
            "<select id=\"\(id)\" name=\"role\">" + roles.map { "<option value=\"\(esc($0))\"\($0 == selected ? " selected" : "")>\(esc($0))</option>" }.joined() + "</select>\n"
        }
        func item(_ kind: String, _ id: String) -> String {
            Self.path(Self.orgItem, org.id).replacingOccurrences(of: "{kind}", with: kind).replacingOccurrences(of: "{item}", with: FormEncoding.encodeComponent(id))
        }
        let typed = { (name: String) in form.map { Self.field($0, name) } ?? "" }
        var body = notice + (problem.map { Self.problem(page, $0) } ?? "")
        body += "<dl class=\"facts\">\n<dt>\(esc(page.text(ConsoleText.orgSlug)))</dt><dd><code>\(esc(org.slug))</code></dd>\n"
            + "<dt>\(esc(page.text(ConsoleText.orgID)))</dt><dd><code>\(esc(org.id))</code></dd>\n</dl>\n"

        body += "<section id=\"members\">\n<h2>\(esc(page.text(ConsoleText.membersHeading)))</h2>\n"
        let members = try op.service.members(org, limit: 200, cursor: nil).items
        if members.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noMembers)))</p>\n" }
        for member in members {
            let userID = member["user_id"]?.stringValue ?? ""
            let email = (try? op.service.userForMembership(userID))?.email ?? userID
            let held = (member["roles"]?.arrayValue ?? []).compactMap(\.stringValue)
            body += "<div class=\"item member\" data-user=\"\(esc(userID))\"><p><strong>\(esc(email))</strong> · \(esc(held.joined(separator: ", ")))</p>\n"
            if write {
                body += "<div class=\"actions\">\n"
                    + Self.form(item("member-role", userID), op, "<label for=\"role-\(esc(userID))\">\(esc(page.text(ConsoleText.memberRole)))</label>\n"
                                + roleSelect("role-\(esc(userID))", selected: held.first ?? ""), button: page.text(ConsoleText.changeRole), secondary: true)
                    + Self.form(item("member-remove", userID), op, "", button: page.text(ConsoleText.removeMember), danger: true) + "</div>\n"
            }
            body += "</div>\n"
        }
        if write {
            body += "<h3>\(esc(page.text(ConsoleText.addMemberHeading)))</h3>\n"
                + Self.form(Self.path(Self.orgAction, org.id, action: "members"), op,
                            Self.input("member-user", "user_id", page.text(ConsoleText.memberUser), value: typed("user_id"), problem: problem, extra: " required")
                            + "<label for=\"member-role\">\(esc(page.text(ConsoleText.memberRole)))</label>\n" + roleSelect("member-role", selected: "member"),
                            button: page.text(ConsoleText.addMember))
        }
        body += "</section>\n"

        if op.may("listOrganizationInvitations") {
            body += "<section id=\"invitations\">\n<h2>\(esc(page.text(ConsoleText.invitationsHeading)))</h2>\n"
            let invitations = try op.service.organizations.invitations(org)
            if invitations.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noInvitations)))</p>\n" }
            let now = environment.clock.now
            for invitation in invitations {
                let state = AdminService.json(invitation, now: now)["status"]?.stringValue ?? ""
                body += "<div class=\"item invitation\" data-invitation=\"\(esc(invitation.id))\" data-state=\"\(esc(state))\"><p><strong>\(esc(invitation.email))</strong> · \(esc(invitation.role)) · "
                    + "<span class=\"status-\(esc(state))\">\(esc(state))</span> <span class=\"muted\">\(esc(AccountRoutes.date(invitation.createdAt)))</span></p>\n"
                if write, state == "pending" {
                    body += "<div class=\"actions\">\n" + Self.form(item("invitation-resend", invitation.id), op, "", button: page.text(ConsoleText.resendInvitation), secondary: true)
                        + Self.form(item("invitation-revoke", invitation.id), op, "", button: page.text(ConsoleText.revokeInvitation), danger: true) + "</div>\n"
                }
                body += "</div>\n"
            }
            if write {
                body += "<h3>\(esc(page.text(ConsoleText.inviteHeading)))</h3>\n"
                    + Self.form(Self.path(Self.orgAction, org.id, action: "invite"), op,
                                Self.input("invite-email", "email", page.text(ConsoleText.email), value: typed("email"), type: "email", problem: problem, extra: " required")
                                + "<label for=\"invite-role\">\(esc(page.text(ConsoleText.memberRole)))</label>\n" + roleSelect("invite-role", selected: "member"),
                                button: page.text(ConsoleText.invite))
            }
            body += "</section>\n"
        }

        if op.may("listOrganizationDomains") {
            body += "<section id=\"domains\">\n<h2>\(esc(page.text(ConsoleText.domainsHeading)))</h2>\n"
            let claims = try op.service.domainClaims.claims(organizationID: org.id)
            if claims.isEmpty { body += "<p class=\"muted\">\(esc(page.text(ConsoleText.noDomains)))</p>\n" }
            for claim in claims {
                let json = AdminService.json(claim)
                let verified = claim.verifiedAt != nil
                body += "<div class=\"item domain\" data-domain=\"\(esc(claim.domain))\"><p><strong>\(esc(claim.domain))</strong> · "
                    + esc(page.text(verified ? ConsoleText.domainVerified : ConsoleText.domainUnverified)) + " · "
                    + esc(page.text(ConsoleText.domainPolicy, claim.policy.rawValue)) + "</p>\n"
                if !verified {
                    body += "<p class=\"muted\">\(esc(page.text(ConsoleText.txtRecord)))</p>\n<pre><code>"
                        + esc((json["txt_record"]?["name"]?.stringValue ?? "") + " TXT \"" + (json["txt_record"]?["value"]?.stringValue ?? "") + "\"") + "</code></pre>\n"
                    if op.may("verifyOrganizationDomain") {
                        body += "<div class=\"actions\">\n" + Self.form(item("domain-dns", claim.domain), op, "", button: page.text(ConsoleText.verifyDomain), secondary: true)
                            + Self.form(item("domain-operator", claim.domain), op, "", button: page.text(ConsoleText.markVerified), secondary: true) + "</div>\n"
                    }
                }
                body += "</div>\n"
            }
            if op.may("claimOrganizationDomain") {
                body += "<h3>\(esc(page.text(ConsoleText.claimDomainHeading)))</h3>\n"
                    + Self.form(Self.path(Self.orgAction, org.id, action: "domains"), op,
                                Self.input("claim-domain", "domain", page.text(ConsoleText.domainName), value: typed("domain"), problem: problem, extra: " required"),
                                button: page.text(ConsoleText.claimDomain))
            }
            body += "</section>\n"
        }
        return render(op, page, section: .orgs, title: org.name, body: body, status: status)
    }

    /// The `{action}`s of `orgAction`, each with its admin operation.
    static let orgActions = ["members": "addOrganizationMember", "invite": "inviteToOrganization", "domains": "claimOrganizationDomain"]
    /// The `{kind}`s of `orgItem`, each with its admin operation.
    static let orgItemKinds = ["member-role": "setOrganizationMemberRoles", "member-remove": "removeOrganizationMember",
                               "invitation-resend": "resendOrganizationInvitation", "invitation-revoke": "revokeOrganizationInvitation",
                               "domain-dns": "verifyOrganizationDomain", "domain-operator": "verifyOrganizationDomain"]

    /// `POST /console/orgs/{id}/{action}`: add a member (`members`), invite (`invite`) or claim a
    /// domain (`domains`). A refusal shows the page again with the field named, nothing changed.
    func orgActionSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let action = request.pathParameters["action"], let operation = Self.orgActions[action] else { return Self.noSuchAction(errors) }
        return submit(request, errors, operation: operation) { op, form in
            let org = try op.service.organization(try AdminRequest.id(request))
            do {
                let notice: ConsoleNotice
                switch action {
                case "members":
                    let user = try op.service.userForMembership(Self.field(form, "user_id"))
                    _ = try op.service.mapped { try op.service.organizations.addMember(org, userID: user.id, roles: [Self.field(form, "role")], actor: op.service.actor) }
                    notice = .memberAdded
                case "invite":
                    _ = try op.service.invite(org, email: Self.field(form, "email"), role: Self.field(form, "role"))
                    notice = .invitationSent
                default:
                    let claims = op.service.domainClaims, domain = Self.field(form, "domain")
                    _ = try op.service.mappedClaim { () throws(DomainClaimError) in try claims.claim(domain, organizationID: org.id) }
                    notice = .domainClaimed
                }
                return Self.back(Self.path(Self.org, org.id), notice.rawValue)
            } catch let error as AdminError where error.field != nil && [400, 403, 404, 409].contains(error.status) {
                return try orgDetail(op, errors.page, org: org, notice: "", problem: error, form: form, status: error.status)
            }
        }
    }

    /// `POST /console/orgs/{id}/{kind}/{item}`: a member's role or removal, an invitation's resend
    /// or revocation, a domain's verification (DNS, or the operator's word).
    func orgItemSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let kind = request.pathParameters["kind"], let operation = Self.orgItemKinds[kind], let item = request.pathParameters["item"], !item.isEmpty else {
            return Self.noSuchAction(errors)
        }
        return submit(request, errors, operation: operation) { op, form in
            let org = try op.service.organization(try AdminRequest.id(request))
            let orgs = op.service.organizations
            do {
                switch kind {
                case "member-role":
                    let user = try op.service.userForMembership(item, field: "user")
                    _ = try op.service.mapped { try orgs.setRoles(org, userID: user.id, roles: [Self.field(form, "role")], actor: op.service.actor) }
                case "member-remove":
                    let user = try op.service.userForMembership(item, field: "user")
                    try op.service.mapped { try orgs.removeMember(org, userID: user.id, actor: op.service.actor) }
                case "invitation-resend": _ = try op.service.resendInvitation(org, id: item)
                case "invitation-revoke": try op.service.mapped { try orgs.revoke(try orgs.invitation(org, id: item), actor: op.service.actor) }
                default:
                    let claim = try op.service.domainClaim(org, item)
                    let claims = op.service.domainClaims, resolver = environment.txtResolver, byDNS = kind == "domain-dns"
                    _ = try op.service.mappedClaim { () throws(DomainClaimError) in
                        byDNS ? try claims.verifyByDNS(claim.domain, organizationID: org.id, resolver: resolver)
                            : try claims.verifyByOperator(claim.domain, organizationID: org.id)
                    }
                }
            } catch let error as AdminError where error.field != nil && [400, 403, 404, 409, 503].contains(error.status) {
                return try orgDetail(op, errors.page, org: org, notice: "", problem: error, status: error.status)
            }
            return Self.back(Self.path(Self.org, org.id), ConsoleNotice.orgSaved.rawValue)
        }
    }

    static func noSuchAction(_ errors: ErrorRenderer) -> HTTPResponse {
        errors.render(OAuthError(.invalidRequest, "No such action."), status: 404,
                      title: errors.page.text(ConsoleText.notFoundTitle), message: errors.page.text(ConsoleText.notFound))
    }
}
