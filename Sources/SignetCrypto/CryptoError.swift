/// The one error type thrown by SignetCrypto.
///
/// The message names the operation that failed and, where useful, OpenSSL's reason string. It never
/// contains key material, plaintext, passwords or signatures.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A human-readable explanation, safe to log.
    public let message: String

    /// Creates an error with a message that must not contain secret material.
    public init(_ message: String) {
        self.message = message
    }

    /// The message, prefixed so it is recognisable in logs.
    public var description: String { "CryptoError: \(message)" }
}
