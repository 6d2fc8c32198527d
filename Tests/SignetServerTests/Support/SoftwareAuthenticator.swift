import Foundation
import SignetCrypto
import SignetJOSE
@testable import SignetWebAuthn

/// A WebAuthn authenticator and client in the test: an Ed25519 credential, `none` attestation,
/// and every field a hostile client could set differently (origin, RP ID, flags, counter,
/// credential id), so each refusal can be tried on an otherwise valid ceremony.
final class SoftwareAuthenticator: @unchecked Sendable {
    let key: PrivateKey
    let credentialID: [UInt8]
    var rpID: String
    var origin: String
    var backupEligible: Bool
    var signCount: UInt32 = 0
    var userHandle: [UInt8]?

    init(rpID: String, origin: String, backupEligible: Bool = false) throws {
        key = try PrivateKey.generate(.ed25519)
        credentialID = SecureRandom.bytes(16)
        self.rpID = rpID
        self.origin = origin
        self.backupEligible = backupEligible
    }

    /// UP, UV (and BE/BS when syncable).
    var flags: UInt8 { 0x01 | 0x04 | (backupEligible ? 0x18 : 0) }

    var coseKey: [UInt8] {
        CBORValue.map([
            CBORMapEntry(key: .unsigned(1), value: .unsigned(1)),      // kty OKP
            CBORMapEntry(key: .unsigned(3), value: .negative(7)),      // alg -8 (EdDSA)
            CBORMapEntry(key: .negative(0), value: .unsigned(6)),      // crv Ed25519
            CBORMapEntry(key: .negative(1), value: .bytes(key.publicKey.ed25519Raw ?? [])),
        ]).encoded()
    }

    static func challenge(_ options: JSONValue) -> String { options["challenge"]?.stringValue ?? "" }

    func clientData(_ type: String, challenge: String, origin: String? = nil) -> [UInt8] {
        let object: JSONValue = ["type": .string(type), "challenge": .string(challenge), "origin": .string(origin ?? self.origin),
                                 "crossOrigin": false]
        return object.serialized()
    }

    func counterBytes(_ count: UInt32) -> [UInt8] { withUnsafeBytes(of: count.bigEndian) { Array($0) } }

    /// A `RegistrationResponseJSON` for `options` (a creation options object).
    func register(_ options: JSONValue, flags: UInt8? = nil, rpID: String? = nil, origin: String? = nil) -> [UInt8] {
        let clientDataJSON = clientData("webauthn.create", challenge: Self.challenge(options), origin: origin)
        var authData = Digest.sha256(Array((rpID ?? self.rpID).utf8)) + [(flags ?? self.flags) | 0x40] + counterBytes(signCount)
        authData += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey
        let attestation = CBORValue.map([
            CBORMapEntry(key: .text("fmt"), value: .text("none")),
            CBORMapEntry(key: .text("attStmt"), value: .map([])),
            CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
        ]).encoded()
        if let handle = options["user"]?["id"]?.stringValue { userHandle = Base64URL.decode(handle) }
        let id = Base64URL.encode(credentialID)
        let json: JSONValue = ["id": .string(id), "rawId": .string(id), "type": "public-key", "clientExtensionResults": [:],
                               "authenticatorAttachment": "platform",
                               "response": ["clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                                            "attestationObject": .string(Base64URL.encode(attestation)),
                                            "transports": ["internal"]]]
        return json.serialized()
    }

    /// An `AuthenticationResponseJSON` for `options` (a request options object). The counter goes
    /// up by one unless `counter` sets it.
    func assert(_ options: JSONValue, flags: UInt8? = nil, rpID: String? = nil, origin: String? = nil, counter: UInt32? = nil,
                credentialID: [UInt8]? = nil, challenge: String? = nil) throws -> [UInt8] {
        signCount = counter ?? (signCount + 1)
        let clientDataJSON = clientData("webauthn.get", challenge: challenge ?? Self.challenge(options), origin: origin)
        let authData = Digest.sha256(Array((rpID ?? self.rpID).utf8)) + [flags ?? self.flags] + counterBytes(signCount)
        let signature = try key.sign(authData + Digest.sha256(clientDataJSON), algorithm: .edDSA)
        let id = Base64URL.encode(credentialID ?? self.credentialID)
        var response: [String: JSONValue] = ["clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                                             "authenticatorData": .string(Base64URL.encode(authData)),
                                             "signature": .string(Base64URL.encode(signature))]
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        let json: JSONValue = ["id": .string(id), "rawId": .string(id), "type": "public-key", "clientExtensionResults": [:],
                               "response": .object(response)]
        return json.serialized()
    }
}
