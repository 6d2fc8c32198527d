import Foundation

extension InMemoryStorage: SigningKeyStore {
    /// See `SigningKeyStore.insertKey(_:)`.
    public func insertKey(_ key: SigningKeyRecord) throws {
        try state.withLock { s in
            guard s.keys[key.id] == nil else { throw StoreError.duplicate }
            s.keys[key.id] = key
            s.keysGeneration += 1
        }
    }

    /// See `SigningKeyStore.insertKeyUnlessOneCanSign(_:now:)`.
    public func insertKeyUnlessOneCanSign(_ key: SigningKeyRecord, now: Date) throws -> Bool {
        try state.withLock { s in
            if s.keys.values.contains(where: { $0.algorithm == key.algorithm && $0.signsSoon(at: now) }) { return false }
            guard s.keys[key.id] == nil else { throw StoreError.duplicate }
            s.keys[key.id] = key
            s.keysGeneration += 1
            return true
        }
    }

    /// See `SigningKeyStore.allKeys()`.
    public func allKeys() throws -> [SigningKeyRecord] {
        state.withLock { s in
            s.keys.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        }
    }

    /// See `SigningKeyStore.retireKey(id:retiredAt:removeAfter:)`.
    public func retireKey(id: String, retiredAt: Date, removeAfter: Date) throws {
        try state.withLock { s in
            guard s.keys[id] != nil else { throw StoreError.notFound }
            s.keys[id]?.retiredAt = retiredAt
            s.keys[id]?.removeAfter = removeAfter
            s.keysGeneration += 1
        }
    }

    /// See `SigningKeyStore.deleteRemovedKeys(now:)`.
    public func deleteRemovedKeys(now: Date) throws -> Int {
        state.withLock { s in
            let gone = s.keys.values.filter { $0.removeAfter.map { $0 < now } ?? false }.map(\.id)
            for id in gone { s.keys[id] = nil }
            if !gone.isEmpty { s.keysGeneration += 1 }
            return gone.count
        }
    }

    /// See `SigningKeyStore.keysGeneration()`.
    public func keysGeneration() throws -> Int64 {
        state.withLock { $0.keysGeneration }
    }
}
