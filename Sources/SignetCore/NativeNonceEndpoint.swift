import Foundation
import SignetCrypto
import SignetStore
import SignetWire

/// `POST /native/nonce`: issues a one-time login nonce to a first-party native app before it
/// asks Google's Credential Manager (`setNonce`) or Apple's sheet for an ID token. The nonce is
/// an `sgn_` token; only its keyed hash is stored, bound to the client, for
/// `policy.nativeNonceLifetime` seconds. Rate limited per client address, counting only requests
/// from clients that may use native sign-in.
public struct NativeNonceEndpoint: Sendable {
    /// The outcome of a request.
    public enum Outcome: Sendable, Equatable {
        /// A nonce and its lifetime in seconds.
        case issued(nonce: String, expiresIn: Int)
        /// Too many requests from the address: retry after this many seconds.
        case rateLimited(retryAfter: Int)
    }

    let clients: ClientRegistry
    let throttle: any ThrottleStore
    let nonces: any NonceStore
    let tokens: OpaqueTokens
    let clock: any Clock
    /// The nonce lifetime and the rate limit.
    let policy: ServerPolicy

    /// Handles a request from `clientAddress` (the client's rate-limit key, an IPv6 client by its
    /// /64; hashed before use as a key).
    ///
    /// - Throws: `OAuthError`: `invalid_request` (no or repeated `client_id`), `invalid_client`
    ///   (unknown client), `unauthorized_client` (not a first-party public client registered for
    ///   token exchange).
    public func handle(_ parameters: RequestParameters, clientAddress: String) throws(OAuthError) -> Outcome {
        let now = clock.now
        guard let clientID = try parameters.single("client_id"), !clientID.isEmpty else {
            throw OAuthError.invalidRequest("The client_id parameter is missing.")
        }
        let client: Client?
        do { client = try clients.client(id: clientID) } catch {
            throw OAuthError.serverError(detail: "client lookup: \(error)")
        }
        guard let client else { throw OAuthError.invalidClient(detail: "native nonce for unknown client") }
        guard client.isPublic, client.isFirstParty, client.grantTypes.contains(.tokenExchange) else {
            throw OAuthError(.unauthorizedClient, "This client may not use native sign-in.")
        }
        // Counted only now, for a client that may use native sign-in: requests naming an unknown
        // or unfit client are refused above and must not use up a real app's budget.
        let key = "native_nonce:" + Base64URL.encode(tokens.hash("address:" + clientAddress).prefix(16))
        do {
            let limit = ThrottleLimit(key: key, limit: policy.nativeNonceRateLimit, windowSeconds: policy.nativeNonceWindow)
            guard try throttle.hitIfUnder([limit], now: now) else { return .rateLimited(retryAfter: policy.nativeNonceWindow) }
        } catch {
            throw OAuthError.serverError(detail: "throttle: \(error)")
        }
        let nonce = tokens.make(.nonce)
        do {
            try nonces.insertNonce(nonceHash: tokens.hash(nonce), clientID: client.id, createdAt: now,
                                   expiresAt: now.addingTimeInterval(TimeInterval(policy.nativeNonceLifetime)))
        } catch {
            throw OAuthError.serverError(detail: "nonce store: \(error)")
        }
        return .issued(nonce: nonce, expiresIn: policy.nativeNonceLifetime)
    }
}

extension NativeNonceEndpoint {
    /// Creates the endpoint.
    public init(server: AuthorizationServer) {
        self.init(clients: server.clients, throttle: server.storage.throttle, nonces: server.storage.nonces,
                  tokens: server.tokens, clock: server.clock, policy: server.policy)
    }
}
