import Foundation
import SignetClientCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetWire

extension MockProvider {
    func installRoutes(_ router: Router) {
        let endpoints: [(HTTPMethod, String, @Sendable (MockProvider, HTTPRequest) async -> HTTPResponse)] = [
            (.GET, "/.well-known/openid-configuration", { $0.discovery($1) }),
            (.GET, "/jwks", { $0.jwksDocument($1) }),
            (.GET, "/authorize", { $0.authorize($1) }),
            (.GET, "/login/oauth/authorize", { $0.authorize($1) }),
            (.POST, "/token", { $0.token($1) }),
            (.POST, "/login/oauth/access_token", { $0.token($1) }),
            (.GET, "/userinfo", { $0.userinfo($1) }),
            (.GET, "/user", { $0.githubUser($1) }),
            (.GET, "/user/emails", { $0.githubEmails($1) }),
            (.POST, "/auth/revoke", { $0.revoke($1) }),
        ]
        for (method, path, handler) in endpoints {
            router.add(method, path, .async { [weak self] request in
                guard let self else { return .text("gone", status: 503) }
                let delay = self.state.withLock { state -> Double in
                    state.requestCounts[path, default: 0] += 1
                    state.inFlight[path, default: 0] += 1
                    return path.hasSuffix("authorize") ? 0 : state.behaviour.delaySeconds
                }
                defer { self.state.withLock { $0.inFlight[path, default: 0] -= 1 } }
                if delay > 0 { try? await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
                if !path.hasSuffix("authorize") {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        self.state.withLock { state in
                            if state.behaviour.holdRequests { state.held.append(continuation) } else { continuation.resume() }
                        }
                    }
                }
                return await handler(self, request)
            })
        }
    }

    private func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        if behaviour.malformedJSON { return .json(Array("{\"broken\": ".utf8), status: status) }
        var response = HTTPResponse.json(value.serialized(), status: status)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    private func oauthError(_ code: String, status: Int = 400) -> HTTPResponse {
        json(["error": .string(code)], status: status)
    }

    func discovery(_ request: HTTPRequest) -> HTTPResponse {
        guard flavor != .github else { return .text("Not Found\n", status: 404) }
        let wrong = behaviour.wrongDiscoveryIssuer
        var document: [String: JSONValue] = [
            "issuer": .string(wrong ? "https://evil.example" : issuer),
            "authorization_endpoint": .string(url("/authorize").absoluteString),
            "token_endpoint": .string(url("/token").absoluteString),
            "jwks_uri": .string(jwksURL.absoluteString),
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": [.string(signingAlgorithm.rawValue)],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": .array((behaviour.tokenEndpointAuthMethods
                ?? ["client_secret_basic", "client_secret_post"]).map(JSONValue.string)),
            "code_challenge_methods_supported": ["S256"],
        ]
        if flavor == .apple {
            document["response_modes_supported"] = ["query", "fragment", "form_post"]
            document["scopes_supported"] = ["openid", "email", "name"]
            document["token_endpoint_auth_methods_supported"] = ["client_secret_post"]
        } else {
            document["userinfo_endpoint"] = .string(url("/userinfo").absoluteString)
        }
        if behaviour.responseIssuer != .none { document["authorization_response_iss_parameter_supported"] = .bool(true) }
        for (member, url) in behaviour.discoveredEndpoints { document[member] = .string(url) }
        return json(.object(document))
    }

    func jwksDocument(_ request: HTTPRequest) -> HTTPResponse {
        if behaviour.jwksUnavailable { return .text("key set unavailable", status: 503) }
        return json(jwks().jsonValue)
    }

    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let query = request.query
        guard let clientID = query.first("client_id"), clientID == self.clientID,
              let redirectURI = query.first("redirect_uri") else {
            return .text("unknown client or missing redirect_uri", status: 400)
        }
        let allowed = state.withLock { $0.redirectURIs }
        guard allowed.isEmpty || allowed.contains(redirectURI) else { return .text("redirect_uri not registered", status: 400) }
        let behaviour = self.behaviour
        let state = behaviour.wrongState ? "not-the-state" : query.first("state")
        var pairs: [(String, String)] = []
        if let error = behaviour.callbackError {
            pairs.append(("error", error))
        } else {
            let code = "mockcode_" + RandomToken.make()
            let pending = MockProviderState.PendingCode(clientID: clientID, redirectURI: redirectURI,
                                                        codeChallenge: query.first("code_challenge"),
                                                        nonce: query.first("nonce"), scope: query.first("scope") ?? "")
            self.state.withLock {
                $0.codes[code] = pending
                $0.lastAuthorizationNonce = pending.nonce
            }
            pairs.append(("code", code))
        }
        if let state { pairs.append(("state", state)) }
        switch behaviour.responseIssuer {
        case .correct: pairs.append(("iss", issuer))
        case .wrong: pairs.append(("iss", "https://evil.example"))
        case .none, .missing: break
        }
        if query.first("response_mode") == "form_post" {
            if flavor == .apple, behaviour.callbackError == nil, let email = user.email {
                // Apple sends the user's name only once, as JSON in a `user` form field.
                let name = user.name ?? ""
                let userJSON: JSONValue = ["name": ["firstName": .string(name), "lastName": ""], "email": .string(email)]
                pairs.append(("user", userJSON.serializedString()))
            }
            return Self.formPostPage(action: redirectURI, pairs: pairs)
        }
        let separator = redirectURI.contains("?") ? "&" : "?"
        return .redirect(to: redirectURI + separator + FormEncoding.encode(pairs), status: 302)
    }

    /// Apple-style `response_mode=form_post`: a page whose form POSTs the response to the client.
    static func formPostPage(action: String, pairs: [(String, String)]) -> HTTPResponse {
        var html = "<!DOCTYPE html><html><body onload=\"document.forms[0].submit()\">"
        html += "<form method=\"post\" action=\"\(PageLayout.escape(action))\">"
        for (name, value) in pairs {
            html += "<input type=\"hidden\" name=\"\(PageLayout.escape(name))\" value=\"\(PageLayout.escape(value))\">"
        }
        html += "<noscript><button type=\"submit\">Continue</button></noscript></form></body></html>"
        return .html(html)
    }

    func token(_ request: HTTPRequest) -> HTTPResponse {
        if behaviour.redirectTokenEndpoint { return .redirect(to: tokenURL.absoluteString, status: 302) }
        guard let form = try? request.form() else { return oauthError("invalid_request") }
        guard authenticateClient(request, form) else { return oauthError("invalid_client", status: 401) }
        guard form.first("grant_type") == "authorization_code", let code = form.first("code") else {
            return oauthError(form.first("grant_type") == nil ? "invalid_request" : "unsupported_grant_type")
        }
        guard let pending = state.withLock({ $0.codes.removeValue(forKey: code) }),
              pending.clientID == clientID, form.first("redirect_uri") == pending.redirectURI else {
            return oauthError("invalid_grant")
        }
        if let challenge = pending.codeChallenge {
            guard let verifier = form.first("code_verifier"),
                  Base64URL.encode(Digest.sha256(Array(verifier.utf8))) == challenge else { return oauthError("invalid_grant") }
        }
        let accessToken = (flavor == .github ? "gho_" : "mockat_") + RandomToken.make()
        state.withLock { _ = $0.accessTokens.insert(accessToken) }
        if flavor == .github {
            let wantsJSON = request.headers["Accept"]?.contains("application/json") ?? false
            let pairs = [("access_token", accessToken), ("token_type", "bearer"), ("scope", pending.scope)]
            if !wantsJSON { return .text(FormEncoding.encode(pairs)) }
            return json(.object(Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, JSONValue.string($0.1)) })))
        }
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3600,
        ]
        do {
            let claims = idTokenClaims(nonce: pending.nonce, accessToken: accessToken)
            body["id_token"] = .string(try sign(claims))
        } catch {
            return oauthError("server_error", status: 500)
        }
        if flavor == .apple {
            let refreshToken = "mockrt_" + RandomToken.make()
            state.withLock { _ = $0.refreshTokens.insert(refreshToken) }
            body["refresh_token"] = .string(refreshToken)
        }
        return json(.object(body))
    }

    /// Apple's `POST /auth/revoke`: `client_id`, `client_secret` (the ES256 JWT, checked with
    /// `clientSecretValidator`: signature and claims), `token`, `token_type_hint`. Records every
    /// call; 200 with an empty body when the client and token check out, else Apple's errors
    /// (`invalid_client` 400, `invalid_request` 400). A revoked token is forgotten.
    func revoke(_ request: HTTPRequest) -> HTTPResponse {
        guard flavor == .apple else { return .text("Not Found\n", status: 404) }
        guard let form = try? request.form() else { return oauthError("invalid_request") }
        let secret = form.first("client_secret") ?? ""
        let validSecret = form.first("client_id") == clientID
            && (clientSecretValidator.map { $0(secret) } ?? constantTimeEquals(Array(secret.utf8), Array(clientSecret.utf8)))
        let token = form.first("token") ?? "", hint = form.first("token_type_hint")
        let known = state.withLock { state -> Bool in
            let known = state.refreshTokens.contains(token) || state.accessTokens.contains(token)
            state.revocations.append(MockRevocation(clientID: form.first("client_id"), token: token, tokenTypeHint: hint,
                                                    clientSecretValid: validSecret, tokenKnown: known))
            return known
        }
        if let status = behaviour.revocationStatus { return oauthError("server_error", status: status) }
        guard validSecret else { return oauthError("invalid_client") }
        guard !token.isEmpty, hint == nil || hint == "refresh_token" || hint == "access_token" else {
            return oauthError("invalid_request")
        }
        if known {
            state.withLock { state in
                state.refreshTokens.remove(token)
                state.accessTokens.remove(token)
            }
        }
        // Apple answers 200 for a token it does not know too (RFC 7009 §2.2).
        return HTTPResponse(status: 200)
    }

    private func authenticateClient(_ request: HTTPRequest, _ form: FormFields) -> Bool {
        var id = form.first("client_id")
        var secret = form.first("client_secret")
        var method = "client_secret_post"
        if let authorization = request.headers["Authorization"], authorization.hasPrefix("Basic "),
           let decoded = Data(base64Encoded: String(authorization.dropFirst(6))),
           let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":") {
            id = String(text[..<colon]).removingPercentEncoding
            secret = String(text[text.index(after: colon)...]).removingPercentEncoding
            method = "client_secret_basic"
        }
        guard id == clientID, let secret else { return false }
        if let accepted = behaviour.tokenEndpointAuthMethods, !accepted.contains(method) { return false }
        if let clientSecretValidator { return clientSecretValidator(secret) }
        return constantTimeEquals(Array(secret.utf8), Array(clientSecret.utf8))
    }

    private func bearer(_ request: HTTPRequest) -> Bool {
        guard let authorization = request.headers["Authorization"] else { return false }
        let token: Substring
        if authorization.hasPrefix("Bearer ") { token = authorization.dropFirst(7) }
        else if authorization.hasPrefix("token ") { token = authorization.dropFirst(6) }   // GitHub's older form
        else { return false }
        return state.withLock { $0.accessTokens.contains(String(token)) }
    }

    func userinfo(_ request: HTTPRequest) -> HTTPResponse {
        guard flavor != .github, flavor != .apple else { return .text("Not Found\n", status: 404) }
        guard bearer(request) else { return oauthError("invalid_token", status: 401) }
        let user = self.user
        var body: [String: JSONValue] = ["sub": .string(behaviour.userinfoSubject ?? user.subject)]
        if let email = user.email {
            body["email"] = .string(email)
            body["email_verified"] = behaviour.emailVerifiedAsString ? .string(user.emailVerified ? "true" : "false") : .bool(user.emailVerified)
        }
        if let name = user.name { body["name"] = .string(name) }
        return json(.object(body))
    }

    func githubUser(_ request: HTTPRequest) -> HTTPResponse {
        guard bearer(request) else { return json(["message": "Bad credentials"], status: 401) }
        let user = self.user
        let primary = (user.githubEmails ?? []).first { $0.primary }?.email ?? user.email
        return json(["id": .int(Int64(user.githubID)), "login": .string(user.login),
                     "name": user.name.map(JSONValue.string) ?? .null, "email": primary.map(JSONValue.string) ?? .null])
    }

    func githubEmails(_ request: HTTPRequest) -> HTTPResponse {
        guard bearer(request) else { return json(["message": "Bad credentials"], status: 401) }
        let user = self.user
        let emails = user.githubEmails ?? user.email.map { [($0, true, user.emailVerified)] } ?? []
        return json(.array(emails.map { entry in
            ["email": .string(entry.0), "primary": .bool(entry.1), "verified": .bool(entry.2), "visibility": "private"]
        }))
    }
}
