import Foundation
import SignetCrypto
import SignetJOSE

/// What the platform's passkey API is asked for a sign-in: Signet's
/// `PublicKeyCredentialRequestOptionsJSON` (W3C WebAuthn §5.1.2), decoded. Signet asks for a
/// discoverable credential (no allowed credentials, so no user is named) with user verification
/// required.
public struct PasskeyAssertionOptions: Sendable, Equatable {
    /// The RP ID: `ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier:)`.
    public let relyingPartyID: String
    /// The challenge (32 random bytes, single use, five minutes).
    public let challenge: Data
    /// How long the ceremony may take, if the server said.
    public let timeout: TimeInterval?
    /// `required`, `preferred` or `discouraged` (Signet always sends `required`).
    public let userVerification: String
    /// The credentials the server accepts; empty for a discoverable credential.
    public let allowedCredentialIDs: [Data]

    /// Reads the options (the `publicKey` member of Signet's answer).
    ///
    /// - Throws: `.invalidTokenResponse` naming the member that is missing or malformed.
    public init(json: JSONValue) throws(SignInError) {
        relyingPartyID = try PasskeyJSON.string(json, "rpId")
        challenge = try PasskeyJSON.bytes(json, "challenge")
        timeout = json["timeout"]?.intValue.map { TimeInterval($0) / 1000 }
        userVerification = json["userVerification"]?.stringValue ?? "preferred"
        allowedCredentialIDs = try PasskeyJSON.credentialIDs(json, "allowCredentials")
    }
}

/// What the platform's passkey API is asked for a registration: Signet's
/// `PublicKeyCredentialCreationOptionsJSON` (W3C WebAuthn §5.1.1), decoded.
public struct PasskeyRegistrationOptions: Sendable, Equatable {
    /// The RP ID.
    public let relyingPartyID: String
    /// The RP's name.
    public let relyingPartyName: String
    /// The WebAuthn user handle (opaque, never the email): `createCredentialRegistrationRequest(…userID:)`.
    public let userID: Data
    /// The account's name (its email): `createCredentialRegistrationRequest(…name:)`.
    public let userName: String
    /// The name shown beside it.
    public let userDisplayName: String
    /// The challenge.
    public let challenge: Data
    /// The COSE algorithms the server accepts, in its order of preference (-7 ES256, -8 EdDSA, -257 RS256).
    public let algorithms: [Int]
    /// The user's passkeys already registered: an authenticator holding one must not register again.
    public let excludedCredentialIDs: [Data]
    /// How long the ceremony may take, if the server said.
    public let timeout: TimeInterval?
    /// `required` (Signet's).
    public let userVerification: String

    /// Reads the options (the `publicKey` member of Signet's answer).
    ///
    /// - Throws: `.invalidTokenResponse` naming the member that is missing or malformed.
    public init(json: JSONValue) throws(SignInError) {
        guard let rp = json["rp"], let user = json["user"] else { throw .invalidTokenResponse("passkey options without rp or user") }
        relyingPartyID = try PasskeyJSON.string(rp, "id")
        relyingPartyName = rp["name"]?.stringValue ?? relyingPartyID
        userID = try PasskeyJSON.bytes(user, "id")
        userName = try PasskeyJSON.string(user, "name")
        userDisplayName = user["displayName"]?.stringValue ?? userName
        challenge = try PasskeyJSON.bytes(json, "challenge")
        algorithms = (json["pubKeyCredParams"]?.arrayValue ?? []).compactMap { $0["alg"]?.intValue.map(Int.init) }
        guard !algorithms.isEmpty else { throw .invalidTokenResponse("passkey options without pubKeyCredParams") }
        excludedCredentialIDs = try PasskeyJSON.credentialIDs(json, "excludeCredentials")
        timeout = json["timeout"]?.intValue.map { TimeInterval($0) / 1000 }
        userVerification = json["authenticatorSelection"]?["userVerification"]?.stringValue ?? "preferred"
    }
}

/// What the platform returned for a sign-in (`ASAuthorizationPlatformPublicKeyCredentialAssertion`,
/// Credential Manager's `PublicKeyCredential`): sent to Signet as `AuthenticationResponseJSON`.
public struct PasskeyAssertion: Sendable, Equatable {
    /// The credential id.
    public var credentialID: Data
    /// The client data the platform signed over (`rawClientDataJSON`).
    public var clientDataJSON: Data
    /// The authenticator data (`rawAuthenticatorData`).
    public var authenticatorData: Data
    /// The signature.
    public var signature: Data
    /// The user handle (`userID`), when the authenticator returned one.
    public var userHandle: Data?

    /// An assertion from its parts.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    /// `AuthenticationResponseJSON` (W3C WebAuthn §5.1.4).
    var json: JSONValue {
        var response: [String: JSONValue] = ["clientDataJSON": PasskeyJSON.encode(clientDataJSON),
                                             "authenticatorData": PasskeyJSON.encode(authenticatorData),
                                             "signature": PasskeyJSON.encode(signature)]
        if let userHandle { response["userHandle"] = PasskeyJSON.encode(userHandle) }
        return PasskeyJSON.credential(credentialID, response: response)
    }
}

/// What the platform returned for a registration (`ASAuthorizationPlatformPublicKeyCredentialRegistration`):
/// sent to Signet as `RegistrationResponseJSON`.
public struct PasskeyAttestation: Sendable, Equatable {
    /// The new credential's id.
    public var credentialID: Data
    /// The client data (`rawClientDataJSON`).
    public var clientDataJSON: Data
    /// The attestation object (`rawAttestationObject`): CBOR with `fmt`, `attStmt` and `authData`.
    public var attestationObject: Data
    /// The authenticator's transports (`internal`, `hybrid`, …), if known.
    public var transports: [String]

    /// An attestation from its parts.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = []) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }

    /// `RegistrationResponseJSON` (W3C WebAuthn §5.1.3).
    var json: JSONValue {
        PasskeyJSON.credential(credentialID, response: ["clientDataJSON": PasskeyJSON.encode(clientDataJSON),
                                                        "attestationObject": PasskeyJSON.encode(attestationObject),
                                                        "transports": .array(transports.map(JSONValue.string))])
    }
}

/// The platform's passkey API, behind which SignetKit runs the native ceremonies: on Apple
/// platforms `PlatformPasskeyAuthenticator` (SignetKitApple, over
/// `ASAuthorizationPlatformPublicKeyCredentialProvider`); on Android, Credential Manager in the
/// app's own glue; in tests, a software authenticator.
///
/// Throw `SignInError.cancelled` when the user dismissed the sheet; any other error becomes
/// `.authenticatorFailed`.
public protocol PasskeyAuthenticator: Sendable {
    /// Asks the user for a passkey for `options.relyingPartyID` over `options.challenge`.
    func assertion(for options: PasskeyAssertionOptions) async throws -> PasskeyAssertion
    /// Creates a passkey for `options.userID` at `options.relyingPartyID` over `options.challenge`.
    func attestation(for options: PasskeyRegistrationOptions) async throws -> PasskeyAttestation
}

/// A passkey Signet stored for the signed-in user.
public struct RegisteredPasskey: Sendable, Equatable {
    /// The credential id, base64url.
    public let id: String
    /// Its name on the account page ("Passkey" for a synced one, "Security key" for one device).
    public let name: String
}

/// The JSON helpers of the passkey types: base64url byte members (W3C WebAuthn §5.1's JSON forms).
enum PasskeyJSON {
    static func string(_ json: JSONValue, _ member: String) throws(SignInError) -> String {
        guard let value = json[member]?.stringValue, !value.isEmpty else { throw .invalidTokenResponse("passkey options without \(member)") }
        return value
    }

    static func bytes(_ json: JSONValue, _ member: String) throws(SignInError) -> Data {
        guard let text = json[member]?.stringValue, let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw .invalidTokenResponse("passkey options: \(member) is not base64url")
        }
        return Data(bytes)
    }

    static func credentialIDs(_ json: JSONValue, _ member: String) throws(SignInError) -> [Data] {
        var ids: [Data] = []
        for descriptor in json[member]?.arrayValue ?? [] { ids.append(try bytes(descriptor, "id")) }
        return ids
    }

    static func encode(_ data: Data) -> JSONValue { .string(Base64URL.encode(data)) }

    /// A `PublicKeyCredential`'s JSON form with `response`.
    static func credential(_ id: Data, response: [String: JSONValue]) -> JSONValue {
        ["id": encode(id), "rawId": encode(id), "type": "public-key", "clientExtensionResults": [:], "response": .object(response)]
    }
}
