import SignetCrypto
import SignetMacros

/// What a ceremony must have been run for: the challenge issued for it, the origins and the RP ID.
///
/// The caller supplies the challenge it issued (and has consumed, single use); this library reads
/// no clock and keeps no state.
@MemberwiseInit
public struct WebAuthnExpectation: Sendable, Hashable {
    /// The challenge bytes sent in the options.
    public let challenge: [UInt8]
    /// The accepted origins, compared exactly: the issuer's origin (`https://id.example.com`) and
    /// any configured extra ones (`android:apk-key-hash:…`, related origins).
    public let origins: Set<String>
    /// The RP ID (a host name, the issuer's or a parent domain).
    public let rpID: String

    /// SHA-256 of the RP ID (§6.1 `rpIdHash`).
    var rpIDHash: [UInt8] { Digest.sha256(Array(rpID.utf8)) }

    /// The authenticator-data checks both ceremonies share: rpIdHash, UP, UV (§7.1 steps 15-17,
    /// §7.2 steps 15-17).
    func check(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard constantTimeEquals(data.rpIDHash, rpIDHash) else { throw .rpIDMismatch }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        // Signet always asks for userVerification "required".
        guard data.flags.contains(.userVerified) else { throw .userNotVerified }
    }
}
