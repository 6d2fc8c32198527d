import SignetCrypto
import Testing
@testable import SignetWebAuthn

/// Authenticator data (§6.1): every byte accounted for.
@Suite struct AuthenticatorDataTests {
    static let rpIDHash = Digest.sha256(Array("login.example.com".utf8))

    static func parse(_ bytes: [UInt8]) -> Result<AuthenticatorData, WebAuthnError> {
        Result { () throws(WebAuthnError) in try AuthenticatorData(bytes: bytes) }
    }

    @Test func readsFlagsCounterAndExtensions() throws {
        let extensions = ([.text("credProtect"): .unsigned(2)] as CBORValue).encoded()
        let data = try AuthenticatorData(bytes: Self.rpIDHash + [0x85, 0x00, 0x00, 0x01, 0x02] + extensions)
        #expect(data.rpIDHash == Self.rpIDHash)
        #expect(data.flags == [.userPresent, .userVerified, .extensionData])
        #expect(data.signCount == 258)
        #expect(data.attestedCredentialData == nil)
        #expect(data.extensions?[text: "credProtect"] == .unsigned(2))
    }

    @Test func refusesWhatDoesNotAddUp() {
        // Extensions that are not a map; bytes after the extensions; AT without the data.
        #expect(Self.parse(Self.rpIDHash + [0x85, 0, 0, 0, 0, 0x01])
                == .failure(.malformed(field: "authenticatorData.extensions", reason: "not a CBOR map")))
        #expect(Self.parse(Self.rpIDHash + [0x85, 0, 0, 0, 0, 0xA0, 0x00])
                == .failure(.malformed(field: "authenticatorData", reason: "1 bytes after the last field")))
        #expect(Self.parse(Self.rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 17))
                == .failure(.malformed(field: "authenticatorData", reason: "attested credential data truncated")))
        #expect(Self.parse(Self.rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0x00, 0x00])
                == .failure(.malformed(field: "authenticatorData", reason: "empty credential id")))
        #expect(Self.parse(Self.rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0x00, 0x04, 1, 2])
                == .failure(.malformed(field: "authenticatorData", reason: "credential id truncated")))
        #expect(Self.parse([UInt8](repeating: 0, count: 8193)) == .failure(.tooLarge(field: "authenticatorData", limit: 8192)))
    }
}
