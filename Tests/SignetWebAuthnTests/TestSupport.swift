import Foundation
import SignetCrypto
import SignetJOSE
@testable import SignetWebAuthn

/// The committed vector files under Vectors/ (made by scripts/testing/*.py).
enum Vectors {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

    static func load(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Array(Data(contentsOf: directory.appendingPathComponent(name))), maximumDepth: 16)
    }

    /// The cases of vectors.json (nil when the file cannot be read: every test then fails).
    static let generated: [JSONValue] = (try? load("vectors.json"))?["cases"]?.arrayValue ?? []

    static var generatedNames: [String] { generated.compactMap { $0["name"]?.stringValue } }

    static func generatedCase(_ name: String) -> JSONValue? {
        generated.first { $0["name"]?.stringValue == name }
    }
}

extension JSONValue {
    /// A base64url member's bytes.
    func bytes(_ key: String) -> [UInt8]? {
        self[key]?.stringValue.flatMap { Base64URL.decode($0) }
    }
}

extension WebAuthnError {
    /// The case's name, as the vector files spell the expected refusal.
    var caseName: String {
        switch self {
        case .malformed: "malformed"
        case .tooLarge: "tooLarge"
        case .wrongCeremonyType: "wrongCeremonyType"
        case .challengeMismatch: "challengeMismatch"
        case .originNotAllowed: "originNotAllowed"
        case .crossOriginRefused: "crossOriginRefused"
        case .rpIDMismatch: "rpIDMismatch"
        case .userNotPresent: "userNotPresent"
        case .userNotVerified: "userNotVerified"
        case .invalidBackupFlags: "invalidBackupFlags"
        case .missingAttestedCredentialData: "missingAttestedCredentialData"
        case .credentialIDTooLong: "credentialIDTooLong"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .invalidPublicKey: "invalidPublicKey"
        case .unsupportedAttestationFormat: "unsupportedAttestationFormat"
        case .invalidAttestation: "invalidAttestation"
        case .badSignature: "badSignature"
        case .backupEligibilityChanged: "backupEligibilityChanged"
        case .credentialMismatch: "credentialMismatch"
        }
    }
}

/// Runs `body` and returns the WebAuthnError it threw, or nil when it returned.
func refusal<T>(_ body: () throws(WebAuthnError) -> T) -> WebAuthnError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
