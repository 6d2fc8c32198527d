import Foundation

extension InMemoryStorage: SessionStore {
    /// See `SessionStore.insertSession(_:)`.
    public func insertSession(_ session: SessionRecord) throws {
        try state.withLock { s in
            guard s.sessions[session.idHash] == nil else { throw StoreError.duplicate }
            s.sessions[session.idHash] = session
        }
    }

    /// See `SessionStore.session(idHash:now:)`.
    public func session(idHash: [UInt8], now: Date) throws -> SessionRecord? {
        state.withLock { s in s.sessions[idHash].flatMap { $0.isActive(at: now) ? $0 : nil } }
    }

    /// See `SessionStore.touchSession(idHash:now:idleExpiresAt:)`.
    public func touchSession(idHash: [UInt8], now: Date, idleExpiresAt: Date) throws -> SessionRecord? {
        state.withLock { s in
            guard var session = s.sessions[idHash], session.isActive(at: now) else { return nil }
            session.lastSeenAt = now
            session.idleExpiresAt = min(idleExpiresAt, session.absoluteExpiresAt)
            s.sessions[idHash] = session
            return session
        }
    }

    /// See `SessionStore.endSession(idHash:now:)`.
    public func endSession(idHash: [UInt8], now: Date) throws -> Bool {
        state.withLock { s in
            guard let session = s.sessions[idHash], session.endedAt == nil else { return false }
            s.sessions[idHash]?.endedAt = now
            return true
        }
    }

    /// See `SessionStore.endSessions(userID:now:)`.
    public func endSessions(userID: String, now: Date) throws -> Int {
        state.withLock { s in
            let open = s.sessions.values.filter { $0.userID == userID && $0.endedAt == nil }.map(\.idHash)
            for hash in open { s.sessions[hash]?.endedAt = now }
            return open.count
        }
    }
}
