import Foundation
import SignetSync
import SignetCrypto
import SignetStore

/// Looks clients up, with a node-local cache that the database invalidates: when the store's
/// client generation moves (a client added, changed or removed by the CLI or another node), the
/// cache is dropped. The generation is checked at most once per `recheckInterval`.
///
/// Client ids come from the network, so both halves of the cache are bounded: an id longer than
/// `maxIDBytes` is unknown without any lookup (registration allows at most 128 bytes), and at
/// most `missingLimit` unknown ids are remembered (the oldest is forgotten first).
public final class ClientRegistry: Sendable {
    /// The longest client id ever looked up, in UTF-8 bytes; longer ids are unknown clients.
    public static let maxIDBytes = 256
    private struct Cache: Sendable {
        var generation: Int64 = -1
        var checkedAt: UInt64 = 0
        var clients: [String: Client] = [:]
        var missing: Set<String> = []
        /// `missing` in insertion order, for forgetting the oldest first.
        var missingOrder: [String] = []
        var missingStart = 0

        /// Remembers an unknown id, forgetting the oldest beyond `limit`.
        mutating func remember(missing id: String, limit: Int) {
            guard limit > 0, missing.insert(id).inserted else { return }
            missingOrder.append(id)
            while missing.count > limit {
                missing.remove(missingOrder[missingStart])
                missingStart += 1
            }
            if missingStart > limit {   // compact the order queue so it stays O(limit) too
                missingOrder.removeFirst(missingStart)
                missingStart = 0
            }
        }
    }

    /// The store the registry reads (registration writes through it).
    public let store: any ClientStore
    private let secretKey: HMACKey
    private let recheckNanoseconds: UInt64
    private let missingLimit: Int
    private let cache = ThreadMutex(Cache())
    /// Clients built into the server (the account page's own sign-in), found before the store.
    private let builtIn: [String: Client]

    /// Creates the registry. `secretKey` keys the hash client secrets are stored under.
    /// The recheck uses the monotonic clock: it is a cache policy, not a rule with a deadline.
    /// At most `missingLimit` unknown ids are remembered.
    /// `builtIn` clients are answered before the store, so their ids are reserved.
    public init(store: any ClientStore, secretKey: [UInt8], recheckInterval: TimeInterval = 1, missingLimit: Int = 10_000,
                builtIn: [Client] = []) {
        self.store = store
        self.builtIn = Dictionary(builtIn.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.secretKey = HMACKey(sha256: secretKey)
        self.recheckNanoseconds = UInt64(max(0, recheckInterval) * 1_000_000_000)
        self.missingLimit = max(0, missingLimit)
    }

    /// The client with this id, or nil when it is unknown or its record is no longer valid.
    /// An id longer than `maxIDBytes` is unknown at once: no store query, nothing cached.
    public func client(id: String) throws -> Client? {
        guard id.utf8.count <= Self.maxIDBytes else { return nil }
        if let client = builtIn[id] { return client }
        try refreshIfStale()
        if let hit = cache.withLock({ $0.clients[id] }) { return hit }
        if cache.withLock({ $0.missing.contains(id) }) { return nil }
        guard let record = try store.client(id: id), let client = try? Client(record: record) else {
            cache.withLock { $0.remember(missing: id, limit: missingLimit) }
            return nil
        }
        cache.withLock { $0.clients[id] = client }
        return client
    }

    /// The keyed hash a client secret is stored under. Secrets are generated with 256 bits of
    /// entropy, so a fast keyed hash protects them; a password hash would cost 100× per grant.
    public func hashSecret(_ secret: String) -> [UInt8] {
        secretKey.mac("client-secret:" + secret)
    }

    /// The keyed hash of `secret` under `key` (`MasterKey.tokenHashKey`), for a built-in client
    /// made before its registry: the same hash as `hashSecret(_:)`.
    public static func hashSecret(_ secret: String, key: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: key, message: Array("client-secret:".utf8) + Array(secret.utf8))
    }

    /// True when `secret` is the client's secret (constant-time comparison).
    public func verifySecret(_ secret: String, for client: Client) -> Bool {
        guard let stored = client.secretHash else { return false }
        return constantTimeEquals(hashSecret(secret), stored)
    }

    /// How many unknown ids are remembered now (never more than the limit).
    public var rememberedMissingCount: Int { cache.withLock { $0.missing.count } }

    private func refreshIfStale() throws {
        let now = DispatchTime.now().uptimeNanoseconds
        guard cache.withLock({ $0.checkedAt == 0 || now &- $0.checkedAt >= recheckNanoseconds }) else { return }
        let generation = try store.clientsGeneration()
        cache.withLock { cache in
            if cache.generation != generation {
                cache = Cache(generation: generation, checkedAt: now)
            } else {
                cache.checkedAt = now
            }
        }
    }
}
