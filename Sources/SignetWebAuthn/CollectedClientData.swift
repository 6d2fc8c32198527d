import SignetCrypto
import SignetJOSE

/// The client data (W3C WebAuthn §5.8.1) of one ceremony, parsed from `clientDataJSON`.
public struct CollectedClientData: Sendable, Hashable {
    /// The longest `clientDataJSON` accepted.
    public static let maximumLength = 4096

    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge, decoded from base64url.
    public let challenge: [UInt8]
    /// The origin of the caller (a web origin, or a platform form such as `android:apk-key-hash:…`).
    public let origin: String
    /// `crossOrigin`, false when absent.
    public let crossOrigin: Bool
    /// `topOrigin`, when present.
    public let topOrigin: String?

    /// Parses `clientDataJSON`.
    public init(json: [UInt8]) throws(WebAuthnError) {
        let field = "clientDataJSON"
        guard json.count <= Self.maximumLength else { throw .tooLarge(field: field, limit: Self.maximumLength) }
        let value: JSONValue
        do {
            value = try JSONValue.parse(json, maximumDepth: 4)
        } catch {
            throw .malformed(field: field, reason: "\(error)")
        }
        guard value.objectValue != nil else { throw .malformed(field: field, reason: "not a JSON object") }
        guard let type = value["type"]?.stringValue else { throw .malformed(field: "\(field).type", reason: "missing or not a string") }
        guard let encoded = value["challenge"]?.stringValue else {
            throw .malformed(field: "\(field).challenge", reason: "missing or not a string")
        }
        guard let challenge = Base64URL.decode(encoded) else { throw .malformed(field: "\(field).challenge", reason: "not base64url") }
        guard let origin = value["origin"]?.stringValue else { throw .malformed(field: "\(field).origin", reason: "missing or not a string") }
        var crossOrigin = false
        if let member = value["crossOrigin"] {
            guard let flag = member.boolValue else { throw .malformed(field: "\(field).crossOrigin", reason: "not a Boolean") }
            crossOrigin = flag
        }
        var topOrigin: String?
        if let member = value["topOrigin"] {
            guard let text = member.stringValue else { throw .malformed(field: "\(field).topOrigin", reason: "not a string") }
            topOrigin = text
        }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
    }

    /// The checks both ceremonies share (§7.1 steps 7-10, §7.2 steps 10-13).
    func check(type expectedType: String, _ expected: WebAuthnExpectation) throws(WebAuthnError) {
        guard type == expectedType else { throw .wrongCeremonyType(expected: expectedType) }
        guard constantTimeEquals(challenge, expected.challenge), !challenge.isEmpty else { throw .challengeMismatch }
        // §13.4.9: the origin must match one of the expected origins exactly.
        guard expected.origins.contains(origin) else { throw .originNotAllowed(origin) }
        // Signet's pages are never framed: a cross-origin ceremony (§7.1 step 10) is refused.
        guard !crossOrigin, topOrigin == nil else { throw .crossOriginRefused }
    }
}
