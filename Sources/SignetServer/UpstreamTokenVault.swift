import SignetCore
import SignetCrypto
import SignetFederation
import SignetStore
import SignetWire

/// Seals the upstream tokens Signet keeps for revocation at account deletion (AES-256-GCM under
/// the master key's upstream-token subkey), bound to the link they belong to: the associated data
/// is the connection, issuer and subject, so a sealed token copied to another row does not open.
struct UpstreamTokenVault: Sendable {
    let key: [UInt8]

    init(masterKey: MasterKey) { key = masterKey.upstreamTokenKey }

    static func associatedData(connectionID: String, issuer: String, subject: String) -> [UInt8] {
        Array("\(connectionID)\u{0}\(issuer)\u{0}\(subject)\u{0}".utf8)
    }

    /// The sealed form of `token` (hint and token, NUL-separated) for one link.
    func seal(_ token: RevocableToken, connectionID: String, issuer: String, subject: String) throws -> [UInt8] {
        try AESGCM.seal(Array("\(token.hint)\u{0}\(token.token)".utf8), key: key,
                        associatedData: Self.associatedData(connectionID: connectionID, issuer: issuer, subject: subject))
    }

    /// The token sealed for `identity`, or nil when it does not open under this key for that link.
    func open(_ sealed: [UInt8], for identity: FederatedIdentityRecord) -> RevocableToken? {
        let data = Self.associatedData(connectionID: identity.connectionID, issuer: identity.issuer, subject: identity.subject)
        guard let plain = try? AESGCM.open(sealed, key: key, associatedData: data),
              let separator = plain.firstIndex(of: 0) else { return nil }
        return RevocableToken(token: String(decoding: plain[(separator + 1)...], as: UTF8.self),
                              hint: String(decoding: plain[..<separator], as: UTF8.self))
    }

    /// Keeps the identity's revocable token, if the provider gave one, on its link. A failure is
    /// logged (never the token) and does not fail the sign-in.
    func keep(_ identity: UpstreamIdentity, connectionID: String, users: any UserStore) {
        guard let token = identity.revocableToken else { return }
        do {
            let sealed = try seal(token, connectionID: connectionID, issuer: identity.issuer, subject: identity.subject)
            try users.setUpstreamToken(connectionID: connectionID, issuer: identity.issuer, subject: identity.subject, sealed: sealed)
        } catch {
            Log.error("federation (\(connectionID)): the upstream token could not be kept: \(type(of: error))")
        }
    }
}
