import Foundation

extension InMemoryStorage: ThrottleStore {
    /// See `ThrottleStore.hit(key:windowSeconds:now:)`.
    public func hit(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return state.withLock { s in
            var hits = (s.throttle[key] ?? []).filter { $0 > start }
            hits.append(now)
            s.throttle[key] = hits
            return hits.count
        }
    }

    /// See `ThrottleStore.hitCount(key:windowSeconds:now:)`.
    public func hitCount(key: String, windowSeconds: Int, now: Date) throws -> Int {
        let start = now.addingTimeInterval(-Double(windowSeconds))
        return state.withLock { s in (s.throttle[key] ?? []).filter { $0 > start && $0 <= now }.count }
    }

    /// See `ThrottleStore.resetHits(key:)`.
    public func resetHits(key: String) throws {
        state.withLock { $0.throttle[key] = nil }
    }
}
