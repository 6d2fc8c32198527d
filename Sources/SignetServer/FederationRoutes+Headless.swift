import Foundation
import SignetCore
import SignetFederation
import SignetHTTP
import SignetJOSE
import SignetWire

extension FederationRoutes {
    /// The seed's camelCase names for the authorization request parameters, accepted beside the
    /// OAuth names in JSON bodies.
    static let camelCaseNames: [String: String] = [
        "responseType": "response_type", "clientId": "client_id", "redirectUri": "redirect_uri",
        "codeChallenge": "code_challenge", "codeChallengeMethod": "code_challenge_method", "loginHint": "login_hint",
        "idTokenHint": "id_token_hint", "maxAge": "max_age", "responseMode": "response_mode", "uiLocales": "ui_locales",
        "acrValues": "acr_values",
    ]

    /// The parameters of a headless call: a JSON object (OAuth or camelCase names; strings,
    /// numbers as text) or a form body. Nil when the body is neither.
    static func parameters(_ request: HTTPRequest) -> RequestParameters? {
        let type = request.headers["Content-Type"]?.lowercased() ?? ""
        if type.hasPrefix("application/json") {
            guard let object = try? JSONValue.parse(request.body, maximumDepth: 4).objectValue else { return nil }
            var pairs: [(String, String)] = []
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                let name = camelCaseNames[key] ?? key
                switch value {
                case .string(let text): pairs.append((name, text))
                case .int(let number): pairs.append((name, String(number)))
                case .null: continue
                default: return nil
                }
            }
            return RequestParameters(pairs)
        }
        guard let form = try? request.form() else { return nil }
        return RequestParameters(form.pairs)
    }

    /// `POST /headless/start`: the parameters of an authorization request, checked exactly like
    /// `/authorize`; errors are JSON (400), never redirects. Only public, first-party clients with
    /// `allow_headless` may use it (`unauthorized_client` otherwise). Returns the request id (the
    /// pending request's handle, valid 10 minutes) and the enabled providers (`"type": "view"`).
    /// With an `email` whose domain has a connection (home-realm discovery: an organization's
    /// governed domain, or `home_realm_domains`), it answers `"type": "redirect"` and the
    /// `redirectUrl` that starts that connection in the system browser (the seed's shape), before
    /// any local choice; an `sso_required` domain whose connection is off is refused (403).
    func headlessStart(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        guard let parameters = Self.parameters(request) else {
            return errors.render(.invalidRequest("The body must be a JSON object or form encoding."))
        }
        let checked: AuthorizationRequest, client: Client
        do { (checked, client) = try interactive.endpoint.validate(parameters) } catch {
            switch error {
            case .page(let oauthError), .redirect(let oauthError, _, _): return errors.render(oauthError)
            }
        }
        guard client.allowsHeadless, client.isPublic, client.isFirstParty else {
            return errors.render(OAuthError(.unauthorizedClient, "This client may not use the headless sign-in API."))
        }
        guard parameters.repeatedNames.isEmpty || !parameters.repeatedNames.contains("email") else {
            return errors.render(.invalidRequest("email must not repeat."))
        }
        let email = (try? parameters.single("email"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let realm: HomeRealmDecision
        do { realm = try interactive.domains.decision(forEmail: email) } catch {
            return errors.render(OAuthError(.serverError, "The server could not complete the request.", detail: "\(error)"))
        }
        if realm.ssoRequired && realm.connectionID == nil {
            return interactive.ssoRequiredJSON(realm, email: email, client: client.id, way: "headless", errors)
        }
        do {
            switch try interactive.flow.start(checked, client: client, sessionToken: nil) {
            case .signIn(let handle), .consent(let handle):
                if let connectionID = realm.connectionID, let provider = federation.enabledProvider(connectionID) {
                    let pending = try interactive.flow.pending(handle: handle)
                    let url: String
                    do { url = try await begin(provider: provider, pending: pending, browserValue: nil, loginHint: checked.loginHint ?? email) } catch let error as FederationError {
                        Log.error("headless start (\(connectionID)): \(error)")
                        return errors.render(OAuthError(.temporarilyUnavailable, error.publicMessage))
                    }
                    server.audit("headless_started", client: client.id, method: "fed:\(connectionID)", reason: "home_realm")
                    return OAuthResponses.json(.object([
                        "type": .string("redirect"), "redirectUrl": .string(url), "requestId": .string(handle),
                        "connection": .string(connectionID), "expiresIn": .int(Int64(server.policy.authorizationRequestLifetime)),
                    ]))
                }
                let providers: [JSONValue] = federation.enabled.map { connection in
                    var object: [String: JSONValue] = ["id": .string(connection.id), "type": .string(connection.type.rawValue),
                                                       "displayName": .string(connection.displayName)]
                    if let logo = connection.logoURL { object["logoUrl"] = .string(logo) }
                    return .object(object)
                }
                server.audit("headless_started", client: client.id)
                return OAuthResponses.json(.object([
                    "type": .string("view"), "requestId": .string(handle), "providers": .array(providers),
                    "expiresIn": .int(Int64(server.policy.authorizationRequestLifetime)),
                ]))
            case .error(let error, _, _):
                return errors.render(error)
            case .code, .secondFactor, .enrolSecondFactor, .passkeyOffer, .pickOrganization:
                // Unreachable without a session cookie; refuse rather than hand a code out here.
                return errors.render(OAuthError(.serverError, "Unexpected flow step."))
            }
        } catch {
            return errors.render(OAuthError(.serverError, "The server could not complete the request.", detail: "\(error)"))
        }
    }

    /// `POST /headless/provider/start` with `requestId` and `connection` (or `connectionId`):
    /// starts a provider transaction bound to the request and returns `{"authorizationUrl": …}`
    /// to open in the system browser.
    func headlessProviderStart(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        guard let parameters = Self.parameters(request), parameters.repeatedNames.isEmpty else {
            return errors.render(.invalidRequest("The body must be a JSON object or form encoding."))
        }
        guard let handle = try? parameters.single("requestId") ?? parameters.single("request_id") else {
            return errors.render(.invalidRequest("requestId is required."))
        }
        guard let connectionID = try? parameters.single("connection") ?? parameters.single("connectionId") else {
            return errors.render(.invalidRequest("connection is required."))
        }
        let pending: PendingRequest
        do { pending = try interactive.flow.pending(handle: handle) } catch is FlowError {
            return errors.render(.invalidRequest("The request id is unknown, expired or already used."))
        } catch {
            return errors.render(OAuthError(.serverError, "The server could not complete the request.", detail: "\(error)"))
        }
        guard pending.client.allowsHeadless, pending.client.isPublic, pending.client.isFirstParty else {
            return errors.render(OAuthError(.unauthorizedClient, "This client may not use the headless sign-in API."))
        }
        guard let provider = federation.enabledProvider(connectionID) else {
            return errors.render(.invalidRequest("Unknown or disabled connection."))
        }
        do {
            let url = try await begin(provider: provider, pending: pending, browserValue: nil, loginHint: pending.request.loginHint)
            return OAuthResponses.json(.object(["authorizationUrl": .string(url)]))
        } catch let error as FederationError {
            Log.error("headless provider start (\(connectionID)): \(error)")
            return errors.render(OAuthError(.temporarilyUnavailable, error.publicMessage))
        } catch {
            return errors.render(OAuthError(.serverError, "The server could not complete the request.", detail: "\(error)"))
        }
    }
}
