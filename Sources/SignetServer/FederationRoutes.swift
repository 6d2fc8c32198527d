import Foundation
import SignetCore
import SignetCrypto
import SignetFederation
import SignetHTTP
import SignetStore
import SignetWire

/// Federated sign-in: Signet's own flow against an upstream provider, between the app's
/// pending authorization request and its code.
///
/// A provider transaction is stored in the pending-request store under the keyed hash of the
/// `state` Signet sends (an `sgn_` token; its `clientID` column is `fed:{connection}`), with the
/// nonce, the PKCE verifier, the connection and the binding. It lives as long as a pending
/// authorization request and is consumed atomically by the callback.
///
/// Browser binding and SameSite: the session and CSRF cookies stay `SameSite=Lax`. Apple
/// returns with a cross-site form POST, which carries no Lax cookie, so the binding uses a
/// dedicated cookie (`signet_fed`, `__Host-signet_fed` on https) holding only a random value:
/// `SameSite=None; Secure` on https, so it survives the form post, and `Lax` on plain-http
/// loopback (where browsers refuse `None` without `Secure`, and a local provider is same-site
/// anyway). The transaction stores HMAC(browserKey, value); the value alone opens nothing.
///
/// Headless starts have no browser yet, so their `authorizationUrl` is Signet's own
/// `/federation/launch?state=…`: the unlaunched transaction is stored under a key the callback
/// never looks up, and the system browser the app opens binds it there (binding cookie set,
/// transaction stored again under the state's hash with the binding, single use) before a 302 to
/// the provider. The callback then requires the binding for every transaction: a callback URL
/// taken from one browser and opened in another signs nobody in (no login CSRF, no forced link).
struct FederationRoutes: Sendable {
    let interactive: InteractiveRoutes
    let server: AuthorizationServer
    /// Provider transactions and link proofs, beside the pending `/authorize` requests.
    let requestStore: any AuthorizationRequestStore
    /// The accounts a link proof names.
    let userStore: any UserStore
    let federation: Federation
    let resolver: FederatedAccountResolver
    let bindingKey: [UInt8]
    let random: any RandomSource
    /// Seals upstream tokens kept for revocation at account deletion.
    let vault: UpstreamTokenVault

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        self.server = application.authorizationServer
        self.requestStore = application.environment.storage.authorizationRequests
        self.userStore = application.environment.storage.users
        self.federation = application.federation
        self.resolver = FederatedAccountResolver(server: application.authorizationServer)
        self.bindingKey = HMAC.sha256(key: application.environment.masterKey.browserKey, message: Array("signet/federation-binding".utf8))
        self.random = application.environment.random
        self.vault = UpstreamTokenVault(masterKey: application.environment.masterKey)
    }

    /// The `clientID` column marking provider transactions in the pending-request store.
    static func marker(_ connectionID: String) -> String { "fed:" + connectionID }

    // MARK: the binding cookie

    var bindingCookieName: String { SetCookie.hostPrefixed("signet_fed", secure: interactive.secure) }

    /// The browser's binding value and the cookie to (re)set.
    func bindingValue(_ request: HTTPRequest) -> (value: String, cookie: SetCookie) {
        let existing = request.cookies[bindingCookieName]
        let value = existing.flatMap { interactive.csrf.isBrowserValue($0) ? $0 : nil } ?? interactive.csrf.newBrowserValue()
        let cookie = SetCookie(name: bindingCookieName, value: value, path: "/", maxAge: server.policy.authorizationRequestLifetime,
                               secure: interactive.secure, httpOnly: true, sameSite: interactive.secure ? SetCookie.SameSite.none : .lax)
        return (value, cookie)
    }

    func binding(of value: String) -> String { Base64URL.encode(HMAC.sha256(key: bindingKey, message: Array(value.utf8))) }

    // MARK: starting a transaction

    /// The `clientID` column marking headless transactions no browser has launched yet.
    static func launchMarker(_ connectionID: String) -> String { "fed-launch:" + connectionID }

    /// The key an unlaunched headless transaction is stored under: not the state's own hash, so
    /// the callback cannot find it before a browser is bound to it.
    func launchKey(_ state: String) -> [UInt8] { server.tokens.hash("launch:" + state) }

    static func challenge(_ verifier: String) -> String { Base64URL.encode(Digest.sha256(Array(verifier.utf8))) }

    /// Creates and stores a provider transaction for a pending request; returns the URL to open:
    /// the provider's, bound to `browserValue`; or, headless (nil), Signet's launch URL, which
    /// binds the browser that opens it.
    func begin(provider: UpstreamProvider, pending: PendingRequest, browserValue: String?, loginHint: String?)
        async throws -> String {
        let state = server.tokens.make(.nonce)
        let nonce = Base64URL.encode(random.bytes(32))
        let verifier = Base64URL.encode(random.bytes(32))
        // Built now for a headless start too, so an unreachable provider fails here (503), not in the browser.
        let url = try await provider.authorizationURL(state: state, nonce: nonce, codeChallenge: Self.challenge(verifier),
                                                      loginHint: loginHint)
        let transaction = ProviderTransaction(connectionID: provider.connection.id, requestHandle: pending.handle, nonce: nonce,
                                              codeVerifier: verifier, browserBinding: browserValue.map(binding(of:)),
                                              headless: browserValue == nil)
        let now = server.clock.now
        let key = browserValue == nil ? launchKey(state) : server.tokens.hash(state)
        let marker = browserValue == nil ? Self.launchMarker(provider.connection.id) : Self.marker(provider.connection.id)
        try await BlockingWork.run { [server, requestStore] in
            try requestStore.insertPendingAuthorization(PendingAuthorizationRecord(
                idHash: key, clientID: marker, payload: transaction.encoded(),
                createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(server.policy.authorizationRequestLifetime))))
        }
        server.audit("federation_started", client: pending.client.id)
        guard browserValue == nil else { return url }
        return server.policy.issuer + Routes.federationLaunch + "?" + FormEncoding.encode([("state", state)])
    }

    /// `GET /federation/launch?state=…`: the headless `authorizationUrl`, opened by the app in the
    /// system browser. Consumes the unlaunched transaction (single use: a second browser finds
    /// nothing), stores it again under the state's hash bound to this browser's binding cookie,
    /// and sends the browser on to the provider (302) with that cookie set.
    func launch(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        let query = request.query
        guard request.queryError == nil, query.repeatedNames.isEmpty, let state = query.first("state"),
              server.tokens.hasShape(state, of: .nonce) else {
            return errors.signInRefused(.linkMalformed)
        }
        let gone = errors.signInRefused(.linkExpired)
        let key = launchKey(state)
        let found: (PendingAuthorizationRecord, ProviderTransaction)?
        do {
            found = try await BlockingWork.run { [server, requestStore] () throws -> (PendingAuthorizationRecord, ProviderTransaction)? in
                guard let record = try requestStore.pendingAuthorization(idHash: key, now: server.clock.now),
                      let stored = ProviderTransaction.decode(record.payload), stored.headless,
                      record.clientID == Self.launchMarker(stored.connectionID) else { return nil }
                return (record, stored)
            }
        } catch {
            return errors.internalError("federation launch", error)
        }
        guard let (record, stored) = found else { return gone }
        guard let provider = federation.enabledProvider(stored.connectionID) else {
            return errors.signInRefused(.optionUnavailable, status: 404)
        }
        let pending: PendingRequest
        do { pending = try await BlockingWork.run { [interactive] in try interactive.flow.pending(handle: stored.requestHandle) } } catch is FlowError {
            return errors.requestGone()
        } catch {
            return errors.internalError("federation launch", error)
        }
        let url: String
        do {
            url = try await provider.authorizationURL(state: state, nonce: stored.nonce, codeChallenge: Self.challenge(stored.codeVerifier),
                                                      loginHint: pending.request.loginHint)
        } catch {
            Log.error("federation launch (\(stored.connectionID)): \(error)")
            return errors.render(OAuthError(.temporarilyUnavailable, error.publicMessage), status: 502,
                                 title: errors.page.text(FederationText.cannotReachTitle, provider.connection.displayName))
        }
        let binding = bindingValue(request)
        var rebound = stored
        rebound.browserBinding = self.binding(of: binding.value)
        let payload = rebound.encoded()
        do {
            let launched = try await BlockingWork.run { [server, requestStore] () throws -> Bool in
                let now = server.clock.now
                // Of concurrent launches of one link, exactly one consumes it.
                guard try requestStore.consumePendingAuthorization(idHash: key, now: now) != nil else { return false }
                try requestStore.insertPendingAuthorization(PendingAuthorizationRecord(
                    idHash: server.tokens.hash(state), clientID: Self.marker(stored.connectionID), payload: payload,
                    createdAt: now, expiresAt: record.expiresAt))
                return true
            }
            guard launched else { return gone }
        } catch {
            return errors.internalError("federation launch", error)
        }
        server.audit("federation_launched", client: pending.client.id)
        var response = HTTPResponse.redirect(to: url, status: 302)
        HTMLPage.harden(&response)
        response.setCookie(binding.cookie)
        return response
    }

    /// `GET /federation/start?request=…&connection=…&csrf=…[&login_hint=…]`: from a provider
    /// button or home-realm discovery. Checks the CSRF field against the browser's cookie (the
    /// same field as the sign-in form), then 303 to the provider with the binding cookie set.
    func start(_ request: HTTPRequest, _ errors: ErrorRenderer) async -> HTTPResponse {
        let query = request.query
        guard let handle = query.first("request"), let connectionID = query.first("connection") else { return errors.requestGone() }
        guard interactive.csrfValid(request, field: query.first("csrf"), purpose: handle) else { return errors.csrfFailure() }
        guard let provider = federation.enabledProvider(connectionID) else {
            return errors.render(.invalidRequest("This sign-in option is not available."), status: 404,
                                 title: errors.page.text(FederationText.unknownOptionTitle), message: errors.page.text(FederationText.optionUnavailable))
        }
        let pending: PendingRequest
        do { pending = try await BlockingWork.run { [interactive] in try interactive.flow.pending(handle: handle) } } catch is FlowError {
            return errors.requestGone()
        } catch {
            return errors.internalError("federation start", error)
        }
        let binding = bindingValue(request)
        let url: String
        do {
            url = try await begin(provider: provider, pending: pending, browserValue: binding.value,
                                  loginHint: query.first("login_hint") ?? pending.request.loginHint)
        } catch let error as FederationError {
            Log.error("federation start (\(connectionID)): \(error)")
            return errors.render(OAuthError(.temporarilyUnavailable, error.publicMessage), status: 502,
                                 title: errors.page.text(FederationText.cannotReachTitle, provider.connection.displayName))
        } catch {
            return errors.internalError("federation start", error)
        }
        var response = HTTPResponse.redirect(to: url, status: 303)
        HTMLPage.harden(&response)
        response.setCookie(binding.cookie)
        return response
    }
}
