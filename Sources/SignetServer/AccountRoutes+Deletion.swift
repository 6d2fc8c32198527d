import Foundation
import SignetCore
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

extension AccountRoutes {
    /// `POST /account/delete`: re-authentication first — the password when the account has
    /// one (throttled like the sign-in page), otherwise a sign-in within the last
    /// `freshSignInMinutes` (`/account/reauth`: `prompt=login`, so through any provider). Then
    /// `AccountDeletion`, and the browser's session cookie is cleared.
    func deleteSubmit(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        guard let form = InteractiveRoutes.formFields(request) else { return errors.malformedForm() }
        do {
            guard let session = try session(request) else { return notSignedIn(errors) }
            guard interactive.csrfValid(request, field: try? form.single("csrf"), purpose: Self.purpose(session)) else {
                return errors.csrfFailure()
            }
            let user = session.user
            if user.passwordHash != nil {
                let password = (try? form.single("password")) ?? ""
                let signIn = interactive.signIn, address = request.clientKey
                let confirmed = try await BlockingWork.run { try signIn.signIn(email: user.email, password: password, clientAddress: address) }
                guard confirmed?.id == user.id else { return Self.back(.wrongPassword) }
            } else if !isFresh(session) {
                return Self.back(.deleteNeedsFreshSignIn)
            }
            try await deletion.delete(userID: user.id, via: "page", language: errors.page.language)
            var response = HTMLPage.response(errors.page, title: errors.page.text(AccountPageText.deletedTitle),
                                             body: "<p>\(HTMLPage.escape(errors.page.text(AccountPageText.deletedBody)))</p>")
            response.setCookie(interactive.clearedCookie(interactive.sessionCookieName))
            return response
        } catch {
            return errors.internalError("account deletion", error)
        }
    }

    /// `DELETE /account` with `Authorization: Bearer` (RFC 6750 §2.1): deletes the token's user.
    /// The token must pass `UserAccessTokenCheck` (else 401 `invalid_token`), carry
    /// `account:delete` and come from a first-party client (else 403 `insufficient_scope`,
    /// RFC 6750 §3.1). 204 on success.
    func apiDelete(_ request: HTTPRequest, _ errors: ErrorRenderer, tokens: UserAccessTokenCheck) async -> HTTPResponse {
        let userID: String
        do throws(OAuthError) {
            guard let token = try SignetApplication.bearerToken(of: request) else { return errors.missingBearerToken() }
            userID = try deletableUser(token, tokens: tokens)
        } catch {
            return errors.render(error)
        }
        // The mail is in the language the app asks for (its `Accept-Language`, as a page's).
        let language = PageLanguage.preferred(acceptLanguage: request.headers["Accept-Language"])
        do { try await deletion.delete(userID: userID, via: "api", language: language) } catch {
            return errors.internalError("account deletion", error)
        }
        var response = HTTPResponse.empty(status: 204)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// The user an access token may delete, after every check of `apiDelete`.
    func deletableUser(_ token: String, tokens: UserAccessTokenCheck) throws(OAuthError) -> String {
        let checked = try tokens.check(token)
        guard checked.scope.contains(Scope.accountDelete) else {
            throw OAuthError(.insufficientScope, "The access token was not granted the account:delete scope.")
        }
        let client: Client?
        do { client = try checked.clientID.flatMap { try interactive.server.clients.client(id: $0) } } catch {
            throw OAuthError.serverError(detail: "account deletion client lookup: \(error)")
        }
        guard client?.isFirstParty == true else {
            throw OAuthError(.insufficientScope, "Only a first-party app may delete the account.")
        }
        return checked.user.id
    }
}
