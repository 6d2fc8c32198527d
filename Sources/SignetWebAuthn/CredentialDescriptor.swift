import SignetCrypto
import SignetJOSE

/// A `PublicKeyCredentialDescriptorJSON` (W3C WebAuthn §5.8.3) for `excludeCredentials` and
/// `allowCredentials`.
public struct CredentialDescriptor: Sendable, Hashable {
    /// The credential id.
    public let id: [UInt8]
    /// The transports stored with it (omitted when empty).
    public let transports: [String]

    /// A descriptor.
    public init(id: [UInt8], transports: [String] = []) {
        self.id = id
        self.transports = transports
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["type": "public-key", "id": .string(Base64URL.encode(id))]
        if !transports.isEmpty { object["transports"] = .array(transports.map { .string($0) }) }
        return .object(object)
    }
}
