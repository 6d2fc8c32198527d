import Foundation
import Synchronization
import Testing
import SignetSQLite
import SignetStore
@testable import SignetCore

@Suite struct ClientRegistryTests {
    /// A client store that counts id lookups and knows one client.
    final class CountingStore: ClientStore {
        let storage: SQLiteStorage
        var inner: any ClientStore { storage.clients }
        let lookups = Mutex(0)
        init() throws { storage = try SQLiteStorage.temporary() }
        func upsertClient(_ client: ClientRecord) throws { try inner.upsertClient(client) }
        func client(id: String) throws -> ClientRecord? {
            lookups.withLock { $0 += 1 }
            return try inner.client(id: id)
        }
        func allClients() throws -> [ClientRecord] { try inner.allClients() }
        func deleteClient(id: String) throws -> Bool { try inner.deleteClient(id: id) }
        func clientsGeneration() throws -> Int64 { try inner.clientsGeneration() }
    }

    @Test func unknownIdsAreRememberedUpToTheLimitOldestForgottenFirst() throws {
        let store = try CountingStore()
        let registry = ClientRegistry(store: store, secretKey: Array(repeating: 1, count: 32), recheckInterval: 3600, missingLimit: 100)
        for index in 0..<5_000 {
            #expect(try registry.client(id: "unknown-\(index)") == nil)
            #expect(registry.rememberedMissingCount <= 100)
        }
        #expect(registry.rememberedMissingCount == 100)
        #expect(store.lookups.withLock { $0 } == 5_000)
        // The newest misses are still answered from the cache, the oldest were forgotten.
        #expect(try registry.client(id: "unknown-4999") == nil)
        #expect(store.lookups.withLock { $0 } == 5_000)
        #expect(try registry.client(id: "unknown-0") == nil)
        #expect(store.lookups.withLock { $0 } == 5_001)
        #expect(registry.rememberedMissingCount == 100)
    }

    @Test func anIdOverTheLengthLimitIsUnknownWithoutALookupOrACacheEntry() throws {
        let store = try CountingStore()
        let registry = ClientRegistry(store: store, secretKey: Array(repeating: 1, count: 32), recheckInterval: 3600)
        for length in [ClientRegistry.maxIDBytes + 1, 100_000] {
            #expect(try registry.client(id: String(repeating: "a", count: length)) == nil)
        }
        #expect(store.lookups.withLock { $0 } == 0)
        #expect(registry.rememberedMissingCount == 0)
        #expect(try registry.client(id: String(repeating: "a", count: ClientRegistry.maxIDBytes)) == nil)
        #expect(store.lookups.withLock { $0 } == 1)
    }
}
