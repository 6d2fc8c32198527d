import Foundation

extension InMemoryStorage: AuthorizationRequestStore {
    /// See `AuthorizationRequestStore.insertPendingAuthorization(_:)`.
    public func insertPendingAuthorization(_ request: PendingAuthorizationRecord) throws {
        try state.withLock { s in
            guard s.pending[request.idHash] == nil else { throw StoreError.duplicate }
            s.pending[request.idHash] = request
        }
    }

    /// See `AuthorizationRequestStore.pendingAuthorization(idHash:now:)`.
    public func pendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord? {
        state.withLock { s in
            s.pending[idHash].flatMap { $0.consumedAt == nil && now < $0.expiresAt ? $0 : nil }
        }
    }

    /// See `AuthorizationRequestStore.deletePendingAuthorization(idHash:)`.
    public func deletePendingAuthorization(idHash: [UInt8]) throws -> Bool {
        state.withLock { $0.pending.removeValue(forKey: idHash) != nil }
    }

    /// See `AuthorizationRequestStore.consumePendingAuthorization(idHash:now:)`.
    public func consumePendingAuthorization(idHash: [UInt8], now: Date) throws -> PendingAuthorizationRecord? {
        state.withLock { s in
            guard var request = s.pending[idHash], request.consumedAt == nil, now < request.expiresAt else {
                return nil
            }
            request.consumedAt = now
            s.pending[idHash] = request
            return request
        }
    }
}
