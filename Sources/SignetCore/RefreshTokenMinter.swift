import Foundation
import SignetCrypto
import SignetStore
import SignetWire

/// Makes refresh token strings: the first token of a new grant family, and the successor a
/// rotation hands out.
public struct RefreshTokenMinter: Sendable {
    /// Where first tokens are stored (only their hash).
    public let store: any RefreshTokenStore
    /// Token strings and their hashes.
    public let tokens: OpaqueTokens
    /// The refresh token lifetime of clients that set none, seconds.
    public let defaultLifetime: Int
    private let derivationKey: HMACKey

    /// Creates the minter; `derivationKey` is `MasterKey.refreshDerivationKey`.
    public init(store: any RefreshTokenStore, tokens: OpaqueTokens, derivationKey: [UInt8], defaultLifetime: Int) {
        self.store = store
        self.tokens = tokens
        self.derivationKey = HMACKey(sha256: derivationKey)
        self.defaultLifetime = defaultLifetime
    }

    /// A token's lifetime for `client`: its own, or the default.
    func lifetime(for client: Client) -> TimeInterval { TimeInterval(client.lifetimes.refreshToken ?? defaultLifetime) }

    /// The successor of a refresh token of the family `grantID`: derived from the presented token,
    /// so a retry inside the grace window yields the same string while only hashes are stored, and
    /// with the family's id appended as every refresh token has it (`OpaqueTokens.refreshLocator`).
    func successor(of presented: String, grantID: String) -> String {
        successorNamingNoFamily(of: presented) + grantID
    }

    /// The successor as it was derived before migration 19, without the family's id: what a token
    /// rotated before the upgrade got, so a retry of it inside the grace window gets it again.
    func successorNamingNoFamily(of presented: String) -> String {
        OpaqueTokens.Kind.refresh.rawValue + "_" + Base64URL.encode(derivationKey.mac(presented))
    }

    /// The first refresh token of a new grant family (code redemption, token exchange): only for
    /// `offline_access` and clients allowed the refresh grant; it expires with the client's (or
    /// the default) refresh lifetime, never after the family.
    func first(grant: GrantRecord, client: Client, scope: Scope, now: Date) throws -> String? {
        guard let (token, record) = firstToken(grant: grant, client: client, scope: scope, now: now) else { return nil }
        try store.insertRefreshToken(record)
        return token
    }

    /// The first refresh token as `first` makes it and the record to store for it, not stored yet
    /// (for `RefreshTokenStore.createGrant(_:firstToken:)`), or nil when the family gets none.
    func firstToken(grant: GrantRecord, client: Client, scope: Scope, now: Date) -> (token: String, record: RefreshTokenRecord)? {
        guard scope.contains(Scope.offlineAccess), client.grantTypes.contains(.refreshToken) else { return nil }
        let token = tokens.makeRefresh(grantID: grant.grantID)
        return (token, RefreshTokenRecord(
            tokenHash: tokens.hash(token), grantID: grant.grantID, scope: grant.scope, createdAt: now,
            expiresAt: min(now.addingTimeInterval(lifetime(for: client)), grant.absoluteExpiresAt)))
    }
}
