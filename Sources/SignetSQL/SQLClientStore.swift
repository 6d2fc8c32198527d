import Foundation
import SignetStore

/// Registered clients over a SQL database (`clients`).
public struct SQLClientStore: ClientStore {
    let database: any SQLDatabase

    static let clientColumns = """
        id, name, secret_hash, secret_salt, is_public, first_party, redirect_uris, post_logout_redirect_uris,
        allowed_scopes, grant_types, token_endpoint_auth_method, id_token_algorithm, access_token_lifetime,
        refresh_token_lifetime, id_token_lifetime, allow_headless, created_at, updated_at, extra, allowed_resources
        """

    static func decodeClient(_ row: any SQLRow) throws -> ClientRecord {
        ClientRecord(
            id: try row.text(0), name: try row.text(1), secretHash: try row.optionalBlob(2),
            secretSalt: try row.optionalBlob(3), isPublic: try row.bool(4), firstParty: try row.bool(5),
            redirectURIs: try row.stringArray(6), postLogoutRedirectURIs: try row.stringArray(7),
            allowedScopes: try row.stringArray(8), grantTypes: try row.stringArray(9),
            tokenEndpointAuthMethod: try row.text(10), idTokenAlgorithm: try row.text(11),
            lifetimes: ClientTokenLifetimes(accessToken: try row.optionalInt(12), refreshToken: try row.optionalInt(13),
                                            idToken: try row.optionalInt(14)),
            allowHeadless: try row.bool(15),
            allowedResources: try row.stringArray(19), createdAt: try row.date(16), updatedAt: try row.date(17),
            extra: try row.text(18))
    }

    static let upsert = """
        INSERT INTO clients (\(clientColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
        ON CONFLICT (id) DO UPDATE SET
            name = excluded.name, secret_hash = excluded.secret_hash, secret_salt = excluded.secret_salt,
            is_public = excluded.is_public, first_party = excluded.first_party,
            redirect_uris = excluded.redirect_uris,
            post_logout_redirect_uris = excluded.post_logout_redirect_uris,
            allowed_scopes = excluded.allowed_scopes, grant_types = excluded.grant_types,
            token_endpoint_auth_method = excluded.token_endpoint_auth_method,
            id_token_algorithm = excluded.id_token_algorithm,
            access_token_lifetime = excluded.access_token_lifetime,
            refresh_token_lifetime = excluded.refresh_token_lifetime,
            id_token_lifetime = excluded.id_token_lifetime, allow_headless = excluded.allow_headless,
            updated_at = excluded.updated_at, extra = excluded.extra,
            allowed_resources = excluded.allowed_resources
        """
    static let byID = "SELECT \(clientColumns) FROM clients WHERE id = $1"
    static let all = "SELECT \(clientColumns) FROM clients ORDER BY id"
    static let delete = "DELETE FROM clients WHERE id = $1"

    /// See `ClientStore.upsertClient(_:)`.
    public func upsertClient(_ client: ClientRecord) throws {
        let binds: [any SQLBindable] = [
            client.id, client.name, client.secretHash, client.secretSalt, client.isPublic, client.firstParty,
            try StringList.json(client.redirectURIs), try StringList.json(client.postLogoutRedirectURIs),
            try StringList.json(client.allowedScopes), try StringList.json(client.grantTypes), client.tokenEndpointAuthMethod,
            client.idTokenAlgorithm, client.lifetimes.accessToken, client.lifetimes.refreshToken, client.lifetimes.idToken,
            client.allowHeadless, client.createdAt, client.updatedAt, client.extra, try StringList.json(client.allowedResources),
        ]
        try database.transaction { db in
            try db.run(Self.upsert, binds)
            try SQLGeneration.bump("clients", db)
        }
    }

    /// See `ClientStore.client(id:)`.
    public func client(id: String) throws -> ClientRecord? {
        try database.read { db in try db.one(Self.byID, [id], Self.decodeClient) }
    }

    /// See `ClientStore.allClients()`.
    public func allClients() throws -> [ClientRecord] {
        try database.read { db in try db.query(Self.all, [], Self.decodeClient) }
    }

    /// See `ClientStore.deleteClient(id:)`.
    public func deleteClient(id: String) throws -> Bool {
        try database.transaction { db in
            guard try db.run(Self.delete, [id]) == 1 else { return false }
            try SQLGeneration.bump("clients", db)
            return true
        }
    }

    /// See `ClientStore.clientsGeneration()`.
    public func clientsGeneration() throws -> Int64 {
        try SQLGeneration.read("clients", database)
    }
}
