import Foundation

extension InMemoryStorage: ClientStore {
    /// See `ClientStore.upsertClient(_:)`.
    public func upsertClient(_ client: ClientRecord) throws {
        state.withLock { s in
            var stored = client
            if let existing = s.clients[client.id] { stored.createdAt = existing.createdAt }
            s.clients[client.id] = stored
            s.clientsGeneration += 1
        }
    }

    /// See `ClientStore.client(id:)`.
    public func client(id: String) throws -> ClientRecord? {
        state.withLock { $0.clients[id] }
    }

    /// See `ClientStore.allClients()`.
    public func allClients() throws -> [ClientRecord] {
        state.withLock { $0.clients.values.sorted { $0.id < $1.id } }
    }

    /// See `ClientStore.deleteClient(id:)`.
    public func deleteClient(id: String) throws -> Bool {
        state.withLock { s in
            guard s.clients.removeValue(forKey: id) != nil else { return false }
            s.clientsGeneration += 1
            return true
        }
    }

    /// See `ClientStore.clientsGeneration()`.
    public func clientsGeneration() throws -> Int64 {
        state.withLock { $0.clientsGeneration }
    }
}
