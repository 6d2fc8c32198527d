import Foundation
import SignetCore
import SignetCrypto
import SignetFederation
import SignetHTTP
import SignetStore
import SignetWire

extension ErrorRenderer {
    /// Why a provider's answer (or a headless launch) is refused before the pending request is
    /// known: there is no verified redirect URI yet, so it is a page on every route kind that has pages.
    func signInRefused(_ reason: FederationText, status: Int = 400) -> HTTPResponse {
        render(.invalidRequest(reason.localized.en), status: status, title: page.text(FederationText.notCompletedTitle),
               message: page.text(reason))
    }
}

extension FederationRoutes {
    /// `GET|POST /oauth2/callback/{connection}`: the provider's answer (Apple: `form_post`).
    ///
    /// Checks, in order: the connection is configured and enabled; `state` names a live
    /// transaction of THIS connection, bound to this browser (headless ones at launch); the transaction is
    /// consumed atomically (a replay finds nothing); the pending request is still there; the
    /// response's `iss` (RFC 9207). Then an
    /// upstream `error` becomes `access_denied` at the app's redirect URI (with `state` and
    /// `iss`); otherwise the code is exchanged and the identity checked (`UpstreamProvider`),
    /// the account resolved, a session started (amr `fed`) and the pending request continued as
    /// after a password sign-in. Failures after the pending request is known go to the app.
    func callback(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        let connectionID = request.pathParameters["connection"] ?? ""
        if federation.isDisabled(connectionID) { return errors.signInRefused(.optionOff, status: 403) }
        guard let provider = federation.enabledProvider(connectionID) else {
            return errors.signInRefused(.optionNotConfigured, status: 404)
        }
        let fields: FormFields
        if request.method == .POST {
            guard let form = try? request.form() else { return errors.signInRefused(.answerMalformed) }
            fields = form
        } else {
            guard request.queryError == nil else { return errors.signInRefused(.answerMalformed) }
            fields = request.query
        }
        guard fields.repeatedNames.isEmpty, let state = fields.first("state"), server.tokens.hasShape(state, of: .nonce) else {
            return errors.signInRefused(.answerForeign)
        }
        let transaction: ProviderTransaction
        do {
            let stateHash = server.tokens.hash(state)
            guard let record = try requestStore.pendingAuthorization(idHash: stateHash, now: server.clock.now),
                  record.clientID.hasPrefix("fed:"), let stored = ProviderTransaction.decode(record.payload) else {
                return errors.signInRefused(.expired)
            }
            // A state from another connection is refused (and left alone).
            guard record.clientID == Self.marker(connectionID), stored.connectionID == connectionID else {
                server.audit("federation_wrong_connection", method: "fed:\(connectionID)")
                return errors.signInRefused(.answerOtherProvider)
            }
            // Every transaction, headless ones included (bound at /federation/launch), belongs to
            // the browser holding its binding cookie: a callback opened anywhere else signs nobody in.
            let cookie = request.cookies[bindingCookieName]
            guard let cookie, let expected = stored.browserBinding,
                  constantTimeEqual(binding(of: cookie), expected) else {
                server.audit("federation_browser_mismatch", method: "fed:\(connectionID)")
                return errors.signInRefused(.otherBrowser,
                                            status: 403)
            }
            guard try requestStore.consumePendingAuthorization(idHash: stateHash, now: server.clock.now) != nil else {
                return errors.signInRefused(.expired)
            }
            transaction = stored
        } catch {
            return errors.internalError("federation callback", error)
        }
        let pending: PendingRequest
        do { pending = try interactive.flow.pending(handle: transaction.requestHandle) } catch is FlowError {
            return errors.requestGone()
        } catch {
            return errors.internalError("federation callback", error)
        }
        do throws(FederationError) { try await provider.checkResponseIssuer(fields.first("iss")) } catch {
            Log.info("federation callback (\(connectionID)): \(error)")
            server.audit("federation_failed", client: pending.client.id, method: "fed:\(connectionID)", reason: Self.reason(error))
            return fail(pending, Self.oauthError(for: error), errors)
        }
        // The provider's own error (the user cancelled, or the provider refused).
        if let upstreamError = fields.first("error") {
            Log.info("federation callback (\(connectionID)): upstream error \(Self.safeCode(upstreamError))")
            server.audit("federation_upstream_error", client: pending.client.id, method: "fed:\(connectionID)")
            let refused = OAuthError(.accessDenied, "The sign-in with \(provider.connection.displayName) was cancelled or refused.")
            return fail(pending, refused, errors)
        }
        guard let code = fields.first("code"), !code.isEmpty, code.utf8.count <= 4096 else {
            return fail(pending, OAuthError(.accessDenied, "The provider returned no authorization code."), errors)
        }
        let identity: UpstreamIdentity
        do throws(FederationError) {
            identity = try await provider.complete(code: code, nonce: transaction.nonce, codeVerifier: transaction.codeVerifier,
                                                   appleUser: fields.first("user"))
            try provider.connection.checkPolicy(identity)
        } catch {
            Log.info("federation callback (\(connectionID)): \(error)")
            server.audit("federation_failed", client: pending.client.id, method: "fed:\(connectionID)", reason: Self.reason(error))
            return fail(pending, Self.oauthError(for: error), errors)
        }
        return await finish(request, pending: pending, identity: identity, connection: provider.connection, errors)
    }

    /// Resolves the account, starts the session and continues the pending request.
    func finish(_ request: HTTPRequest, pending: PendingRequest, identity: UpstreamIdentity, connection: Connection,
                _ errors: ErrorRenderer) async -> HTTPResponse {
        return errors.continuing("federation sign-in") {
            // An `sso_required` domain signs in only through its own connection (checked for the
            // upstream email before anything is created or linked, and for the account's own below).
            let realm = try interactive.domains.decision(forEmail: identity.email ?? "")
            if let refusal = try interactive.flow.gate.realmRefusal(email: identity.email ?? "", way: .federation, connectionID: connection.id) {
                return ssoRequiredRefusal(refusal, email: identity.email ?? "", pending: pending, connection: connection, errors)
            }
            // The governing connection of a verified domain links the existing local account
            // with that (provider-verified) email, whatever the connection's own linking rule.
            let governs = realm.connectionID == connection.id && realm != .configured(connectionID: connection.id)
            let outcome = try resolver.resolve(identity, connectionID: connection.id,
                                               allowLinking: connection.allowLinking || (governs && identity.emailVerified))
            if let user = outcome.user {
                // The account's own address may be in another domain than the provider's email.
                if let own = try interactive.flow.gate.realmRefusal(email: user.email, way: .federation, connectionID: connection.id) {
                    return ssoRequiredRefusal(own, email: user.email, pending: pending, connection: connection, errors)
                }
                try interactive.domains.afterSignIn(userID: user.id, connectionID: connection.id, email: identity.email,
                                                    emailVerified: identity.emailVerified)
            }
            guard let user = outcome.user else {
                switch outcome {
                case .linkRequired(let existingUserID):
                    return try beginLink(identity, connectionID: connection.id, existingUserID: existingUserID, pending: pending)
                case .emailMissing, .emailNotVerified:
                    server.audit("federation_failed", client: pending.client.id, method: "fed:\(connection.id)", reason: "email_not_verified")
                    return fail(pending, OAuthError(.accessDenied, FederationError.emailNotVerified.publicMessage), errors)
                default:
                    server.audit("federation_failed", client: pending.client.id, method: "fed:\(connection.id)", reason: "account_disabled")
                    return fail(pending, OAuthError(.accessDenied, "This account cannot sign in."), errors)
                }
            }
            // Apple: its token, sealed on the link, so deleting the account can revoke it.
            vault.keep(identity, connectionID: connection.id, users: userStore)
            // A new session on every sign-in (no fixation); the browser's previous one ends when
            // its cookie came along (a cross-site form post carries none).
            let event = SignInEvent(user: user, amr: ["fed"], way: .federation, connectionID: connection.id)
            return try interactive.signedIn(request, pending, event, errors) { decision in
                if case .organizationIdP(let held) = decision {
                    return ssoRequiredRefusal(held, email: user.email, pending: pending, connection: connection, errors)
                }
                return fail(pending, OAuthError(.accessDenied, "This account cannot sign in."), errors)
            }
        }
    }

    /// The 403 page for a provider sign-in refused by an `sso_required` domain: nothing is signed
    /// in; the pending request stays, so the user can go back to the sign-in page and take the
    /// domain's connection.
    func ssoRequiredRefusal(_ realm: HomeRealmDecision, email: String, pending: PendingRequest, connection: Connection,
                            _ errors: ErrorRenderer) -> HTTPResponse {
        let governing = realm.owningConnectionID ?? ""
        server.audit("federation_failed", client: pending.client.id, method: "fed:\(connection.id)", reason: "sso_required")
        return errors.ssoRequired(.providerRefused, domain: DomainGovernance.domain(email),
                                  connection: interactive.domains.connectionName(governing), provider: connection.displayName,
                                  continueHref: nil,
                                  backHref: Routes.signIn + "?" + FormEncoding.encode([("request", pending.handle)]))
    }

    /// Ends the pending request and sends the error to the app's redirect URI (with state, iss).
    func fail(_ pending: PendingRequest, _ error: OAuthError, _ errors: ErrorRenderer) -> HTTPResponse {
        _ = try? requestStore.consumePendingAuthorization(idHash: server.tokens.hash(pending.handle), now: server.clock.now)
        return errors.render(error, redirect: VerifiedRedirect(pending))
    }

    /// The OAuth error the app receives for a failed provider leg.
    static func oauthError(for error: FederationError) -> OAuthError {
        switch error {
        case .upstreamUnavailable: OAuthError(.temporarilyUnavailable, error.publicMessage)
        case .misconfigured: OAuthError(.serverError, error.publicMessage)
        default: OAuthError(.accessDenied, error.publicMessage)
        }
    }

    /// A short reason for the audit log (no secrets).
    static func reason(_ error: FederationError) -> String {
        switch error {
        case .misconfigured: "misconfigured"
        case .upstreamUnavailable: "upstream_unavailable"
        case .upstreamRejected: "upstream_rejected"
        case .invalidIDToken: "invalid_id_token"
        case .missingSubject: "missing_subject"
        case .emailNotVerified: "email_not_verified"
        case .domainNotAllowed: "domain_not_allowed"
        case .wrongResponseIssuer: "wrong_response_issuer"
        }
    }

    /// An upstream error code for the log: only a short token of safe characters.
    static func safeCode(_ text: String) -> String {
        let cleaned = text.prefix(40).filter { $0.isLetter || $0 == "_" }
        return cleaned.isEmpty ? "?" : String(cleaned)
    }

    func constantTimeEqual(_ a: String, _ b: String) -> Bool { constantTimeEquals(Array(a.utf8), Array(b.utf8)) }
}
