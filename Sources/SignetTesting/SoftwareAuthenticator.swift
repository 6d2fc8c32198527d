import Foundation
import SignetCrypto
import SignetJOSE
import SignetWebAuthn

/// A WebAuthn authenticator and client in the test: an Ed25519 credential, `none` attestation,
/// and every field a hostile client could set differently (origin, RP ID, flags, counter,
/// credential id, attestation statement), so each refusal can be tried on an otherwise valid
/// ceremony. The server's tests post its JSON; SignetKit's tests put it behind
/// `PasskeyAuthenticator` with the raw parts (`attestation`, `assertion`).
public final class SoftwareAuthenticator: @unchecked Sendable {
    public let key: PrivateKey
    public let credentialID: [UInt8]
    public var rpID: String
    public var origin: String
    public var backupEligible: Bool
    public var signCount: UInt32 = 0
    public var userHandle: [UInt8]?

    public init(rpID: String, origin: String, backupEligible: Bool = false) throws {
        key = try PrivateKey.generate(.ed25519)
        credentialID = SecureRandom.bytes(16)
        self.rpID = rpID
        self.origin = origin
        self.backupEligible = backupEligible
    }

    /// UP, UV (and BE/BS when syncable).
    public var flags: UInt8 { 0x01 | 0x04 | (backupEligible ? 0x18 : 0) }

    public var coseKey: [UInt8] {
        let coseKey: CBORValue = [
            .unsigned(1): .unsigned(1),      // kty OKP
            .unsigned(3): .negative(7),      // alg -8 (EdDSA)
            .negative(0): .unsigned(6),      // crv Ed25519
            .negative(1): .bytes(key.publicKey.ed25519Raw ?? []),
        ]
        return coseKey.encoded()
    }

    public static func challenge(_ options: JSONValue) -> String { options["challenge"]?.stringValue ?? "" }

    public func clientData(_ type: String, challenge: String, origin: String? = nil) -> [UInt8] {
        let object: JSONValue = ["type": .string(type), "challenge": .string(challenge), "origin": .string(origin ?? self.origin),
                                 "crossOrigin": false]
        return object.serialized()
    }

    func counterBytes(_ count: UInt32) -> [UInt8] { withUnsafeBytes(of: count.bigEndian) { Array($0) } }

    /// A registration's `clientDataJSON` and attestation object for a base64url `challenge`;
    /// `statement` replaces the empty `none` statement (`fmt`, `attStmt`).
    public func attestation(challenge: String, flags: UInt8? = nil, rpID: String? = nil, origin: String? = nil,
                            statement: (format: String, statement: CBORValue)? = nil) -> (clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        let clientDataJSON = clientData("webauthn.create", challenge: challenge, origin: origin)
        var authData = Digest.sha256(Array((rpID ?? self.rpID).utf8)) + [(flags ?? self.flags) | 0x40] + counterBytes(signCount)
        authData += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + coseKey
        let attestation: CBORValue = [
            .text("fmt"): .text(statement?.format ?? "none"),
            .text("attStmt"): statement?.statement ?? .map([]),
            .text("authData"): .bytes(authData),
        ]
        return (clientDataJSON, attestation.encoded())
    }

    /// A `RegistrationResponseJSON` for `options` (a creation options object).
    public func register(_ options: JSONValue, flags: UInt8? = nil, rpID: String? = nil, origin: String? = nil,
                         statement: (format: String, statement: CBORValue)? = nil) -> [UInt8] {
        let (clientDataJSON, attestation) = attestation(challenge: Self.challenge(options), flags: flags, rpID: rpID, origin: origin,
                                                        statement: statement)
        if let handle = options["user"]?["id"]?.stringValue { userHandle = Base64URL.decode(handle) }
        let id = Base64URL.encode(credentialID)
        let json: JSONValue = ["id": .string(id), "rawId": .string(id), "type": "public-key", "clientExtensionResults": [:],
                               "authenticatorAttachment": "platform",
                               "response": ["clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                                            "attestationObject": .string(Base64URL.encode(attestation)),
                                            "transports": ["internal"]]]
        return json.serialized()
    }

    /// An assertion's `clientDataJSON`, authenticator data and signature for a base64url
    /// `challenge`. The counter goes up by one unless `counter` sets it.
    public func assertion(challenge: String, flags: UInt8? = nil, rpID: String? = nil, origin: String? = nil,
                          counter: UInt32? = nil) throws -> (clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8]) {
        signCount = counter ?? (signCount + 1)
        let clientDataJSON = clientData("webauthn.get", challenge: challenge, origin: origin)
        let authData = Digest.sha256(Array((rpID ?? self.rpID).utf8)) + [flags ?? self.flags] + counterBytes(signCount)
        let signature = try key.sign(authData + Digest.sha256(clientDataJSON), algorithm: .edDSA)
        return (clientDataJSON, authData, signature)
    }

    /// An `AuthenticationResponseJSON` for `options` (a request options object).
    public func assert(_ options: JSONValue, flags: UInt8? = nil, rpID: String? = nil, origin: String? = nil, counter: UInt32? = nil,
                       credentialID: [UInt8]? = nil, challenge: String? = nil) throws -> [UInt8] {
        let (clientDataJSON, authData, signature) = try assertion(challenge: challenge ?? Self.challenge(options), flags: flags,
                                                                  rpID: rpID, origin: origin, counter: counter)
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
