import SignetCrypto
import SignetStore

/// What a grant family shares with most others (migration 20's `grant_profiles` row): its client,
/// scope, resources (as the stored JSON text) and `amr` (space-separated), and the key the table
/// is unique on, `key`: the SHA-256 of the four values, each preceded by its length in UTF-8 bytes
/// (so no two profiles share the digest's input). A digest instead of the four columns keeps the
/// UNIQUE index at 32 bytes an entry, and within PostgreSQL's B-tree limit (about 2.7 kB an
/// entry), which a client's long scope or resource list would otherwise exceed.
struct GrantProfile: Hashable {
    let clientID: String
    let scope: String
    let resources: String
    let amr: String

    /// The digest `grant_profiles.key_hash` holds.
    var key: [UInt8] {
        var input: [UInt8] = []
        for value in [clientID, scope, resources, amr] {
            let bytes = Array(value.utf8)
            let length = UInt64(bytes.count)
            input += (0..<8).map { UInt8(truncatingIfNeeded: length >> (56 - 8 * $0)) }
            input += bytes
        }
        return Digest.sha256(input)
    }

    /// `SQLRefreshTokenStore.insertProfileSQL`'s parameters.
    var binds: [any SQLBindable] { [key, clientID, scope, resources, amr] }
}

extension GrantProfile {
    /// `grant`'s profile (an extension, so that the memberwise init stays).
    init(_ grant: GrantRecord) throws {
        self.init(clientID: grant.clientID, scope: grant.scope, resources: try StringList.json(grant.resources),
                  amr: grant.amr.joined(separator: " "))
    }
}
