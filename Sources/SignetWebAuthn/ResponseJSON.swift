import SignetCrypto
import SignetJOSE

/// Reads the fields of a `RegistrationResponseJSON` / `AuthenticationResponseJSON` (W3C WebAuthn
/// §5.1) with a size limit per field; every error names the field.
struct ResponseJSON {
    /// The largest response accepted.
    static let maximumLength = 65536

    let root: JSONValue
    let response: JSONValue
    let id: [UInt8]

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLarge(field: "response JSON", limit: Self.maximumLength) }
        do {
            root = try JSONValue.parse(bytes, maximumDepth: 6)
        } catch {
            throw .malformed(field: "response JSON", reason: "\(error)")
        }
        guard root.objectValue != nil else { throw .malformed(field: "response JSON", reason: "not a JSON object") }
        guard root["type"]?.stringValue == "public-key" else { throw .malformed(field: "type", reason: "must be \"public-key\"") }
        guard let response = root["response"], response.objectValue != nil else {
            throw .malformed(field: "response", reason: "missing or not an object")
        }
        self.response = response
        let id = try Self.base64URL(root["id"], field: "id", limit: AuthenticatorData.maximumCredentialIDLength)
        let rawID = try Self.base64URL(root["rawId"], field: "rawId", limit: AuthenticatorData.maximumCredentialIDLength)
        guard id == rawID else { throw .malformed(field: "rawId", reason: "differs from id") }
        self.id = id
        if let results = root["clientExtensionResults"], results.objectValue == nil {
            throw .malformed(field: "clientExtensionResults", reason: "not an object")
        }
        if let attachment = root["authenticatorAttachment"], !attachment.isNull, attachment.stringValue == nil {
            throw .malformed(field: "authenticatorAttachment", reason: "not a string")
        }
    }

    /// A required base64url member of `response` of at most `limit` decoded bytes.
    func field(_ name: String, limit: Int) throws(WebAuthnError) -> [UInt8] {
        try Self.base64URL(response[name], field: "response.\(name)", limit: limit)
    }

    /// An optional one (`null` and `""` count as absent: §5.2.2 `userHandle` is null when empty).
    func optionalField(_ name: String, limit: Int) throws(WebAuthnError) -> [UInt8]? {
        guard let value = response[name], !value.isNull, value != "" else { return nil }
        return try Self.base64URL(value, field: "response.\(name)", limit: limit)
    }

    static func base64URL(_ value: JSONValue?, field: String, limit: Int) throws(WebAuthnError) -> [UInt8] {
        guard let text = value?.stringValue else { throw .malformed(field: field, reason: "missing or not a string") }
        guard text.utf8.count <= (limit * 4 + 2) / 3 else { throw .tooLarge(field: field, limit: limit) }
        guard let bytes = Base64URL.decode(text) else { throw .malformed(field: field, reason: "not base64url") }
        guard !bytes.isEmpty else { throw .malformed(field: field, reason: "empty") }
        return bytes
    }
}

/// A parsed `RegistrationResponseJSON` (what `PublicKeyCredential.toJSON()` gives after
/// `navigator.credentials.create`, or what a native app sends).
public struct RegistrationResponse: Sendable, Hashable {
    /// The credential id (`id`, equal to `rawId`).
    public let id: [UInt8]
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.attestationObject`.
    public let attestationObject: [UInt8]
    /// `response.transports` (at most 8 short strings), empty when absent.
    public let transports: [String]

    /// Parses the JSON bytes.
    public init(json: [UInt8]) throws(WebAuthnError) {
        let parsed = try ResponseJSON(json)
        id = parsed.id
        clientDataJSON = try parsed.field("clientDataJSON", limit: CollectedClientData.maximumLength)
        attestationObject = try parsed.field("attestationObject", limit: RegistrationVerifier.maximumAttestationObjectLength)
        var transports: [String] = []
        if let value = parsed.response["transports"], !value.isNull {
            guard let items = value.arrayValue, items.count <= 8 else {
                throw .malformed(field: "response.transports", reason: "not an array of at most 8 strings")
            }
            for item in items {
                guard let text = item.stringValue, (1...32).contains(text.utf8.count) else {
                    throw .malformed(field: "response.transports", reason: "an element that is not a string of 1 to 32 bytes")
                }
                transports.append(text)
            }
        }
        self.transports = transports
    }
}

/// A parsed `AuthenticationResponseJSON` (after `navigator.credentials.get`).
public struct AuthenticationResponse: Sendable, Hashable {
    /// The longest user handle (§5.4.3: at most 64 bytes).
    public static let maximumUserHandleLength = 64

    /// The credential id (`id`, equal to `rawId`): the caller looks the credential up by it.
    public let id: [UInt8]
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.authenticatorData`.
    public let authenticatorData: [UInt8]
    /// `response.signature`.
    public let signature: [UInt8]
    /// `response.userHandle`, when the authenticator returned one (always, for a discoverable credential).
    public let userHandle: [UInt8]?

    /// Parses the JSON bytes.
    public init(json: [UInt8]) throws(WebAuthnError) {
        let parsed = try ResponseJSON(json)
        id = parsed.id
        clientDataJSON = try parsed.field("clientDataJSON", limit: CollectedClientData.maximumLength)
        authenticatorData = try parsed.field("authenticatorData", limit: AuthenticatorData.maximumLength)
        signature = try parsed.field("signature", limit: AssertionVerifier.maximumSignatureLength)
        userHandle = try parsed.optionalField("userHandle", limit: Self.maximumUserHandleLength)
    }
}
