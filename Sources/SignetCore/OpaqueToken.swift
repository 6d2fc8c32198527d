import SignetCrypto
import SignetJOSE

/// Opaque token strings and the keyed hashes they are stored under.
///
/// A token is `prefix_` + base64url of 32 random bytes, so secret scanners can recognise it.
/// Only `HMAC-SHA-256(tokenHashKey, token)` is ever stored. A refresh token also names its
/// family: `sgr_` + the 43 characters + the family's public grant id (22 base64url characters,
/// `RandomSource.identifier()`; the same `gid` its access tokens carry), so the store finds it
/// under its grant (migration 19). Its hash is of the whole string, so a token whose suffix is
/// changed to another family's id is simply not found. Refresh tokens issued before migration 19
/// have no suffix (47 characters) and are found by their hash alone (`refreshLocator`).
public struct OpaqueTokens: Sendable {
    private let hashKey: HMACKey
    private let random: any RandomSource

    /// Prefixes of the token kinds.
    public enum Kind: String, Sendable {
        /// Authorization codes.
        case code = "sgc"
        /// Refresh tokens.
        case refresh = "sgr"
        /// Browser sessions.
        case session = "sgs"
        /// Pending authorization requests.
        case request = "sgq"
        /// One-time login nonces.
        case nonce = "sgn"
        /// Console sessions (`ConsoleSessionStore`): a cookie's handle, never an API credential.
        case console = "sgo"
    }

    /// Creates the factory from the token hash key and a random source.
    public init(hashKey: [UInt8], random: any RandomSource) {
        self.hashKey = HMACKey(sha256: hashKey)
        self.random = random
    }

    /// A fresh token of a kind.
    public func make(_ kind: Kind) -> String {
        kind.rawValue + "_" + Base64URL.encode(random.bytes(32))
    }

    /// The keyed hash a token is stored under.
    public func hash(_ token: String) -> [UInt8] {
        hashKey.mac(token)
    }

    /// A fresh refresh token of the family `grantID`: `make(.refresh)` with the id appended.
    public func makeRefresh(grantID: String) -> String {
        make(.refresh) + grantID
    }

    /// True when `token` has the shape of a token of `kind` (cheap pre-check before any lookup);
    /// a refresh token of either shape (`refreshLocator`).
    public func hasShape(_ token: String, of kind: Kind) -> Bool {
        kind == .refresh ? refreshLocator(token) != nil : Self.hasBase(token, of: kind)
    }

    /// Where a presented refresh token is stored, from its shape alone (nothing is looked up): nil
    /// when it is not a refresh token; else its family's public grant id, or a locator with none
    /// for a token of the shape before migration 19 (47 characters, found by its hash alone).
    public func refreshLocator(_ token: String) -> RefreshLocator? {
        let utf8 = token.utf8
        let base = Kind.refresh.rawValue.utf8.count + 1 + 43
        guard utf8.count >= base, token.hasPrefix(Kind.refresh.rawValue + "_") else { return nil }
        if utf8.count == base { return RefreshLocator(grantID: nil) }
        let suffix = utf8.dropFirst(base)
        guard suffix.count <= Self.maxGrantIDLength, suffix.allSatisfy(Self.isBase64URL) else { return nil }
        return RefreshLocator(grantID: String(decoding: suffix, as: UTF8.self))
    }

    /// The longest grant id a refresh token's suffix may be (Signet's are 22 characters; the bound
    /// only keeps a presented string's lookup small).
    static let maxGrantIDLength = 64

    static func hasBase(_ token: String, of kind: Kind) -> Bool {
        token.utf8.count == kind.rawValue.utf8.count + 1 + 43 && token.hasPrefix(kind.rawValue + "_")
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}

/// Where a presented refresh token is stored (`OpaqueTokens.refreshLocator`).
public struct RefreshLocator: Sendable, Equatable {
    /// The family's public grant id the token names, or nil for a token issued before migration
    /// 19 (the store finds those by their hash alone).
    public let grantID: String?
}
