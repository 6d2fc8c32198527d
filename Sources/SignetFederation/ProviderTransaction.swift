import Foundation
import SignetMacros

/// Signet's own half of one provider round trip, stored server-side under the keyed hash of
/// the `state` Signet sent (the state itself is never stored).
///
/// It binds the callback to: the connection (a state from another connection is refused), the
/// browser that started it (`browserBinding`, a keyed hash of a cookie value only that browser
/// holds; for the headless API, the browser that opened Signet's launch URL), and the pending
/// authorization request it continues.
@MemberwiseInit
public struct ProviderTransaction: Sendable, Codable, Equatable {
    /// The connection the user chose.
    public var connectionID: String
    /// The pending authorization request (`sgq_` handle) to continue.
    public var requestHandle: String
    /// The nonce sent to the provider; the ID token must carry it.
    public var nonce: String
    /// The PKCE verifier for the provider's token endpoint.
    public var codeVerifier: String
    /// Base64url of the keyed hash of the browser's transaction cookie; nil for a headless start
    /// until a browser launches it (and the callback refuses a transaction without one).
    public var browserBinding: String?
    /// True when started by the headless API (bound to a browser at `/federation/launch`).
    public var headless: Bool

    /// Deterministic JSON (sorted keys).
    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Decodes stored JSON, or nil.
    public static func decode(_ text: String) -> ProviderTransaction? {
        try? JSONDecoder().decode(ProviderTransaction.self, from: Data(text.utf8))
    }
}

extension ProviderTransaction: CustomStringConvertible {
    /// Only the connection: the nonce, verifier and handle are secrets.
    public var description: String { "ProviderTransaction(connection: \(connectionID), headless: \(headless))" }
}
