import Foundation

/// Registered clients.
///
/// Node-local client caches poll `clientsGeneration()`; every write bumps it in the same
/// transaction, so a change made on one node (or by the CLI) is seen by all.
public protocol ClientStore: Sendable {
    /// Inserts the client, or replaces every field of the client with the same `id`.
    /// On replace, the stored `createdAt` is kept.
    func upsertClient(_ client: ClientRecord) throws

    /// The client with this id, or nil.
    func client(id: String) throws -> ClientRecord?

    /// Every client, ordered by id.
    func allClients() throws -> [ClientRecord]

    /// Deletes the client; returns false if there was none.
    func deleteClient(id: String) throws -> Bool

    /// A counter that changes whenever a client is written or deleted. Cheap to call.
    func clientsGeneration() throws -> Int64
}
