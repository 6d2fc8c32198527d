import SignetCrypto
import SignetJOSE

/// A `PublicKeyCredentialUserEntityJSON` (W3C WebAuthn §5.4.3): the account a credential is
/// made for.
public struct UserEntity: Sendable, Hashable {
    /// The user handle: opaque, at most 64 bytes, never an email.
    public let id: [UInt8]
    /// The account name shown in account pickers.
    public let name: String
    /// The display name.
    public let displayName: String

    /// An entity; throws when the handle is empty or longer than 64 bytes (§5.4.3).
    public init(id: [UInt8], name: String, displayName: String) throws(WebAuthnError) {
        guard (1...64).contains(id.count) else { throw .malformed(field: "user.id", reason: "must be 1 to 64 bytes") }
        self.id = id
        self.name = name
        self.displayName = displayName
    }

    var json: JSONValue {
        ["id": .string(Base64URL.encode(id)), "name": .string(name), "displayName": .string(displayName)]
    }
}
