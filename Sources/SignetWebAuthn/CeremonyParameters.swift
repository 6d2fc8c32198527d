import SignetCrypto
import SignetJOSE

/// What the options of both ceremonies carry (W3C WebAuthn §5.1.1, §5.1.2): the RP ID, the
/// challenge and the timeout, with the challenge's rule checked once for both.
public struct CeremonyParameters: Sendable, Hashable {
    /// The RP ID.
    public let rpID: String
    /// The challenge (at least 16 random bytes, issued and stored by the caller).
    public let challenge: [UInt8]
    /// The ceremony's timeout in milliseconds.
    public let timeoutMilliseconds: Int

    /// Parameters; throws for a challenge shorter than 16 bytes (§13.4.3).
    public init(rpID: String, challenge: [UInt8], timeoutMilliseconds: Int = 300_000) throws(WebAuthnError) {
        guard challenge.count >= 16 else { throw .malformed(field: "challenge", reason: "must be at least 16 bytes") }
        self.rpID = rpID
        self.challenge = challenge
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The members both options objects write alike: `challenge` (base64url) and `timeout`.
    var jsonMembers: [String: JSONValue] {
        ["challenge": .string(Base64URL.encode(challenge)), "timeout": .int(Int64(timeoutMilliseconds))]
    }
}
