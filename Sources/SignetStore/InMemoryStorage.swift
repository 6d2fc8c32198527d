import Foundation
import Synchronization

/// A complete store kept in memory behind one lock, with the same contract as the SQL stores.
///
/// For unit tests of the server logic and for throwaway runs; nothing survives the process.
public final class InMemoryStorage: SignetStorage, Sendable {
    /// Everything the store holds; every operation runs under `state`'s lock, so each is atomic.
    struct State {
        var keys: [String: SigningKeyRecord] = [:]
        var keysGeneration: Int64 = 0
        var clients: [String: ClientRecord] = [:]
        var clientsGeneration: Int64 = 0
        var users: [String: UserRecord] = [:]
        var userIDsByEmail: [String: String] = [:]
        var federated: [FederatedKey: FederatedIdentityRecord] = [:]
        var pending: [[UInt8]: PendingAuthorizationRecord] = [:]
        var codes: [[UInt8]: AuthorizationCodeRecord] = [:]
        var grants: [String: GrantRecord] = [:]
        var refreshTokens: [[UInt8]: RefreshTokenRecord] = [:]
        var sessions: [[UInt8]: SessionRecord] = [:]
        var consents: [ConsentKey: ConsentRecord] = [:]
        var nonces: [[UInt8]: NonceEntry] = [:]
        var audit: [AuditEvent] = []
        var throttle: [String: [Date]] = [:]
    }

    /// Key of a federated identity.
    struct FederatedKey: Hashable {
        var connectionID: String
        var issuer: String
        var subject: String
    }

    /// Key of a consent.
    struct ConsentKey: Hashable {
        var userID: String
        var clientID: String
    }

    /// A stored nonce.
    struct NonceEntry {
        var clientID: String
        var createdAt: Date
        var expiresAt: Date
        var consumedAt: Date?
    }

    let state = Mutex(State())

    /// Creates an empty store.
    public init() {}

    /// Signing keys (this object).
    public var keys: any SigningKeyStore { self }
    /// Registered clients (this object).
    public var clients: any ClientStore { self }
    /// Users (this object).
    public var users: any UserStore { self }
    /// Pending `/authorize` requests (this object).
    public var authorizationRequests: any AuthorizationRequestStore { self }
    /// Authorization codes (this object).
    public var codes: any AuthorizationCodeStore { self }
    /// Grant families and refresh tokens (this object).
    public var refreshTokens: any RefreshTokenStore { self }
    /// SSO sessions (this object).
    public var sessions: any SessionStore { self }
    /// Consent (this object).
    public var consents: any ConsentStore { self }
    /// Nonces (this object).
    public var nonces: any NonceStore { self }
    /// Audit log (this object).
    public var audit: any AuditLog { self }
    /// Throttle counters (this object).
    public var throttle: any ThrottleStore { self }

    /// Deletes expired and ended artifacts; see `SignetStorage.purge(before:)`.
    public func purge(before: Date) throws -> Int {
        state.withLock { s in
            var removed = 0
            func prune<K, V>(_ dict: inout [K: V], _ isGone: (V) -> Bool) {
                let gone = dict.filter { isGone($0.value) }.map(\.key)
                for key in gone { dict[key] = nil }
                removed += gone.count
            }
            prune(&s.pending) { $0.expiresAt < before }
            prune(&s.codes) { $0.expiresAt < before }
            prune(&s.nonces) { $0.expiresAt < before }
            prune(&s.sessions) { session in
                session.absoluteExpiresAt < before || session.idleExpiresAt < before
                    || session.endedAt.map { $0 < before } ?? false
            }
            prune(&s.grants) { grant in
                grant.absoluteExpiresAt < before || grant.revokedAt.map { $0 < before } ?? false
            }
            let liveGrants = s.grants
            prune(&s.refreshTokens) { liveGrants[$0.grantID] == nil }
            for (key, hits) in s.throttle {
                let kept = hits.filter { $0 >= before }
                removed += hits.count - kept.count
                s.throttle[key] = kept.isEmpty ? nil : kept
            }
            return removed
        }
    }
}
