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
/// Headless starts have no browser yet: the transaction is bound to the pending request (the
/// request id only the app holds) instead. That is acceptable because the final code is still
/// bound to the app's PKCE challenge: whoever finishes the provider leg, only the app holding
/// the code verifier can redeem Signet's code at `/token`.
struct FederationRoutes: Sendable {
    let interactive: InteractiveRoutes
    let server: AuthorizationServer
    let federation: Federation
    let resolver: FederatedAccountResolver
    let bindingKey: [UInt8]
    let random: any RandomSource

    init(application: SignetApplication, interactive: InteractiveRoutes) {
        self.interactive = interactive
        self.server = application.authorizationServer
        self.federation = application.federation
        self.resolver = FederatedAccountResolver(server: application.authorizationServer)
        self.bindingKey = HMAC.sha256(key: application.environment.masterKey.browserKey, message: Array("signet/federation-binding".utf8))
        self.random = application.environment.random
    }

    /// The `clientID` column marking provider transactions in the pending-request store.
    static func marker(_ connectionID: String) -> String { "fed:" + connectionID }

    // MARK: the binding cookie

    var bindingCookieName: String { interactive.secure ? "__Host-signet_fed" : "signet_fed" }

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

    /// Creates and stores a provider transaction for a pending request; returns the provider URL.
    func begin(provider: UpstreamProvider, pending: PendingRequest, browserValue: String?, loginHint: String?)
        async throws -> String {
        let state = server.tokens.make(.nonce)
        let nonce = Base64URL.encode(random.bytes(32))
        let verifier = Base64URL.encode(random.bytes(32))
        let challenge = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        let url = try await provider.authorizationURL(state: state, nonce: nonce, codeChallenge: challenge, loginHint: loginHint)
        let transaction = ProviderTransaction(connectionID: provider.connection.id, requestHandle: pending.handle, nonce: nonce,
                                              codeVerifier: verifier, browserBinding: browserValue.map(binding(of:)),
                                              headless: browserValue == nil)
        let now = server.clock.now
        try await BlockingWork.run { [server] in
            try server.storage.authorizationRequests.insertPendingAuthorization(PendingAuthorizationRecord(
                idHash: server.tokens.hash(state), clientID: Self.marker(provider.connection.id), payload: transaction.encoded(),
                createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(server.policy.authorizationRequestLifetime))))
        }
        server.audit("federation_started", client: pending.client.id)
        return url
    }

    /// `GET /federation/start?request=…&connection=…&csrf=…[&login_hint=…]`: from a provider
    /// button or home-realm discovery. Checks the CSRF field against the browser's cookie (the
    /// same field as the sign-in form), then 303 to the provider with the binding cookie set.
    func start(_ request: HTTPRequest) async -> HTTPResponse {
        let query = request.query
        guard let handle = query.first("request"), let connectionID = query.first("connection") else { return InteractiveRoutes.requestGone() }
        guard interactive.csrfValid(request, field: query.first("csrf"), purpose: handle) else { return InteractiveRoutes.csrfFailure() }
        guard let provider = federation.enabledProvider(connectionID) else {
            return HTMLPage.error("This sign-in option is not available.", title: "Unknown sign-in option", status: 404)
        }
        let pending: PendingRequest
        do { pending = try await BlockingWork.run { [interactive] in try interactive.flow.pending(handle: handle) } } catch is FlowError {
            return InteractiveRoutes.requestGone()
        } catch {
            return InteractiveRoutes.internalError("federation start", error)
        }
        let binding = bindingValue(request)
        let url: String
        do {
            url = try await begin(provider: provider, pending: pending, browserValue: binding.value,
                                  loginHint: query.first("login_hint") ?? pending.request.loginHint)
        } catch let error as FederationError {
            Log.error("federation start (\(connectionID)): \(error)")
            return HTMLPage.error(error.publicMessage, title: "Cannot reach \(provider.connection.displayName)", status: 502)
        } catch {
            return InteractiveRoutes.internalError("federation start", error)
        }
        var response = HTTPResponse.redirect(to: url, status: 303)
        HTMLPage.harden(&response)
        response.setCookie(binding.cookie)
        return response
    }
}
