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

    /// See `ThrottleStore.hitIfUnder(_:now:)`.
    public func hitIfUnder(_ limits: [ThrottleLimit], now: Date) throws -> Bool {
        state.withLock { s in
            for limit in limits {
                let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                if (s.throttle[limit.key] ?? []).filter({ $0 > start && $0 <= now }).count >= limit.limit { return false }
            }
            for limit in limits {
                let start = now.addingTimeInterval(-Double(limit.windowSeconds))
                s.throttle[limit.key] = (s.throttle[limit.key] ?? []).filter { $0 > start } + [now]
            }
            return true
        }
    }

    /// See `ThrottleStore.removeHit(keys:at:)`.
    public func removeHit(keys: [String], at now: Date) throws {
        state.withLock { s in
            for key in keys {
                guard var hits = s.throttle[key], let index = hits.lastIndex(of: now) else { continue }
                hits.remove(at: index)
                s.throttle[key] = hits.isEmpty ? nil : hits
            }
        }
    }
}
