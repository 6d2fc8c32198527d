import SignetCrypto
import SignetJOSE

/// Opaque token strings and the keyed hashes they are stored under.
///
/// A token is `prefix_` + base64url of 32 random bytes, so secret scanners can recognise it.
/// Only `HMAC-SHA-256(tokenHashKey, token)` is ever stored.
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

    /// True when `token` has the shape of a token of `kind` (cheap pre-check before any lookup).
    public func hasShape(_ token: String, of kind: Kind) -> Bool {
        token.utf8.count == kind.rawValue.utf8.count + 1 + 43 && token.hasPrefix(kind.rawValue + "_")
    }
}
