import Foundation
import SignetCore
import SignetCrypto
import SignetFederation
import SignetHTTP
import SignetStore
import SignetWire

/// A verified upstream identity waiting for the user to prove the existing account that has its
/// email (the connection does not link automatically, or the provider does not vouch for the
/// email). Stored server-side in the pending-request store under the keyed hash of an `sgn_`
/// handle (`clientID` column `link:{connection}`), bound to one browser by a cookie, and consumed
/// once by the successful proof. The identity itself never travels through the browser.
struct PendingLink: Equatable {
    var connectionID: String
    /// The verified upstream identity (what of it is stored: `UpstreamIdentity`'s coding keys).
    var identity: UpstreamIdentity
    /// The existing account the user must prove.
    var userID: String
    /// The pending authorization request (`sgq_` handle) to continue afterwards.
    var requestHandle: String
    /// Base64url of the keyed hash of the browser's link cookie.
    var browserBinding: String

    func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode(_ text: String) -> PendingLink? { try? JSONDecoder().decode(PendingLink.self, from: Data(text.utf8)) }
}

extension PendingLink: Codable {
    /// The link's own members; the identity's stand beside them in the same flat object.
    private enum CodingKeys: String, CodingKey {
        case connectionID, userID, requestHandle, browserBinding
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(connectionID: try container.decode(String.self, forKey: .connectionID), identity: try UpstreamIdentity(from: decoder),
                  userID: try container.decode(String.self, forKey: .userID),
                  requestHandle: try container.decode(String.self, forKey: .requestHandle),
                  browserBinding: try container.decode(String.self, forKey: .browserBinding))
    }

    func encode(to encoder: any Encoder) throws {
        try identity.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(connectionID, forKey: .connectionID)
        try container.encode(userID, forKey: .userID)
        try container.encode(requestHandle, forKey: .requestHandle)
        try container.encode(browserBinding, forKey: .browserBinding)
    }
}

/// Linking after proof: `GET /federation/link?link=…` shows the password form for the existing
/// account, `POST /federation/link` checks the password (same throttling and generic message as
/// the sign-in form), links the identity, starts a session (amr `fed`, `pwd`) and continues the
/// pending request. A wrong password links nothing; the link handle, the link cookie and the
/// CSRF field must all belong together.
extension FederationRoutes {
    /// The `clientID` column marking pending links in the pending-request store.
    static func linkMarker(_ connectionID: String) -> String { "link:" + connectionID }

    var linkCookieName: String { SetCookie.hostPrefixed("signet_link", secure: interactive.secure) }

    /// Stores the pending link and sends the browser to the proof page with the link cookie.
    /// (Lax: the page may be reached by a redirect from a provider's cross-site form post.)
    func beginLink(_ identity: UpstreamIdentity, connectionID: String, existingUserID: String,
                   pending: PendingRequest) throws -> HTTPResponse {
        let handle = server.tokens.make(.nonce)
        let value = interactive.csrf.newBrowserValue()
        let link = PendingLink(connectionID: connectionID, identity: identity, userID: existingUserID, requestHandle: pending.handle,
                               browserBinding: binding(of: value))
        let now = server.clock.now
        try requestStore.insertPendingAuthorization(PendingAuthorizationRecord(
            idHash: server.tokens.hash(handle), clientID: Self.linkMarker(connectionID), payload: link.encoded(),
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(server.policy.authorizationRequestLifetime))))
        server.audit("federation_link_required", subject: existingUserID, client: pending.client.id,
                     detail: ["connection": .string(connectionID)])
        var response = InteractiveRoutes.local(Routes.federationLink, [("link", handle)])
        response.setCookie(SetCookie(name: linkCookieName, value: value, path: "/", maxAge: server.policy.authorizationRequestLifetime,
                                     secure: interactive.secure, httpOnly: true, sameSite: .lax))
        return response
    }

    /// The pending link for `handle` when this browser holds its cookie; nil otherwise.
    func pendingLink(handle: String?, _ request: HTTPRequest) throws -> (link: PendingLink, cookie: String)? {
        guard let handle, server.tokens.hasShape(handle, of: .nonce), let cookie = request.cookies[linkCookieName],
              let record = try requestStore.pendingAuthorization(idHash: server.tokens.hash(handle), now: server.clock.now),
              record.clientID.hasPrefix("link:"), let link = PendingLink.decode(record.payload),
              record.clientID == Self.linkMarker(link.connectionID),
              constantTimeEqual(binding(of: cookie), link.browserBinding) else { return nil }
        return (link, cookie)
    }


    /// `GET /federation/link?link=…[&error=1]`: the password form for the existing account.
    func linkPage(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        let handle = request.query.first("link")
        return errors.continuing("federation link page") {
            guard let (link, cookie) = try pendingLink(handle: handle, request), let handle else { return errors.linkGone() }
            _ = try interactive.flow.pending(handle: link.requestHandle)
            guard let user = try userStore.user(id: link.userID) else { return errors.linkGone() }
            let provider = federation.connections.first { $0.id == link.connectionID }?.displayName ?? link.connectionID
            let signInHref = Routes.signIn + "?" + FormEncoding.encode([("request", link.requestHandle)])
            let page = errors.page
            let title = page.text(FederationText.linkTitle, provider)
            var body = "<p>" + page.html(FederationText.linkExplanation, "<strong>\(HTMLPage.escape(user.email))</strong>",
                                         HTMLPage.escape(provider)) + "</p>\n"
            guard user.passwordHash != nil else {
                body += "<p>\(page.html(FederationText.linkNoPassword))</p>\n"
                body += "<p><a href=\"\(HTMLPage.escape(signInHref))\">\(page.html(FederationText.backToSignIn))</a></p>\n"
                return HTMLPage.response(page, title: title, body: body)
            }
            if request.query.first("error") != nil {
                body += "<p class=\"error\" role=\"alert\">\(page.html(SignInText.failed))</p>\n"
            }
            body += "<form method=\"post\" action=\"\(Routes.federationLink)\">\n"
            body += HTMLPage.hidden("link", handle) + "\n"
            body += HTMLPage.hidden("csrf", interactive.csrf.token(browserValue: cookie, purpose: handle)) + "\n"
            body += "<input type=\"hidden\" name=\"username\" autocomplete=\"username\" value=\"\(HTMLPage.escape(user.email))\">\n"
            body += "<label for=\"password\">\(page.html(FederationText.linkPassword))</label>\n"
            body += "<input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required autofocus>\n"
            body += "<button type=\"submit\">\(page.html(FederationText.linkSubmit))</button>\n</form>\n"
            body += "<p class=\"muted\">\(page.html(FederationText.linkNextTime)) "
                + "<a href=\"\(HTMLPage.escape(signInHref))\">\(page.html(FederationText.useAnotherAccount))</a></p>\n"
            return HTMLPage.response(page, title: title, body: body, formLeadsToClient: true)
        }
    }

    /// `POST /federation/link`: checks handle + cookie + CSRF, then the password (Argon2id, on
    /// a blocking-work thread); on success consumes the pending link, links, signs in and
    /// continues the pending request. Always a 303 or an error page.
    func linkSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request), form.repeatedNames.isEmpty, let handle = try? form.single("link") else {
            return errors.malformedForm()
        }
        return errors.continuing("federation link") {
            guard let (link, cookie) = try pendingLink(handle: handle, request) else { return errors.linkGone() }
            guard interactive.csrf.verify(token: try? form.single("csrf"), browserValue: cookie, purpose: handle) else {
                return errors.csrfFailure()
            }
            let pending = try interactive.flow.pending(handle: link.requestHandle)
            guard let account = try userStore.user(id: link.userID) else { return errors.linkGone() }
            let password = (try? form.single("password")) ?? ""
            guard let user = try interactive.signIn.signIn(email: account.email, password: password, clientAddress: request.clientKey),
                  user.id == link.userID else {
                return InteractiveRoutes.local(Routes.federationLink, [("link", handle), ("error", "1")])
            }
            // Exactly once: a second submission (another tab) finds nothing.
            guard try requestStore.consumePendingAuthorization(idHash: server.tokens.hash(handle), now: server.clock.now) != nil else {
                return errors.linkGone()
            }
            guard let linked = try resolver.link(link.identity, connectionID: link.connectionID, toUser: user.id)?.user else {
                server.audit("federation_link_refused", subject: user.id, client: pending.client.id)
                return fail(pending, OAuthError(.accessDenied, "This sign-in cannot be linked to the account."), errors)
            }
            var response = try interactive.signedIn(request, pending, SignInEvent(user: linked, amr: ["fed", "pwd"], way: .federation,
                                                                                  connectionID: link.connectionID), errors)
            response.setCookie(interactive.clearedCookie(linkCookieName))
            return response
        }
    }
}

extension ErrorRenderer {
    /// A pending account link that is unknown, used, expired or another browser's.
    func linkGone() -> HTTPResponse {
        render(.invalidRequest("This account link has expired, was already used, or was started in another browser. "
                               + "Go back to the application and start again."), title: page.text(ErrorText.linkGoneTitle),
               message: page.text(ErrorText.linkGone))
    }
}
