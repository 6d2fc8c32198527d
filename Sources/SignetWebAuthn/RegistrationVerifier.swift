import SignetCrypto

/// Verifies a registration ceremony (W3C WebAuthn §7.1 "Registering a New Credential").
public enum RegistrationVerifier {
    /// The largest `attestationObject` accepted (a packed statement with a short chain fits).
    public static let maximumAttestationObjectLength = 16384

    /// Runs §7.1 steps 5-27 on a parsed response and returns the credential to store.
    ///
    /// Checked: `type` `webauthn.create`, the challenge, the origin, no cross-origin or
    /// `topOrigin`, rpIdHash, UP, UV (required), BS only with BE, attested credential data, a
    /// credential id of at most 1023 bytes, an ES256/EdDSA/RS256 key, the attestation statement
    /// (`none`, or `packed` self or x5c), the credential id matching the response's `id`.
    public static func verify(_ response: RegistrationResponse, expecting expected: WebAuthnExpectation) throws(WebAuthnError) -> CredentialRecord {
        try verify(clientDataJSON: response.clientDataJSON, attestationObject: response.attestationObject,
                   credentialID: response.id, transports: response.transports, expecting: expected)
    }

    /// The same on the raw fields; `credentialID`, when given, must be the attested one.
    public static func verify(clientDataJSON: [UInt8], attestationObject: [UInt8], credentialID: [UInt8]? = nil,
                              transports: [String] = [], expecting expected: WebAuthnExpectation) throws(WebAuthnError) -> CredentialRecord {
        // Steps 5-10: client data.
        let clientData = try CollectedClientData(json: clientDataJSON)
        try clientData.check(type: "webauthn.create", expected)
        // Step 11: the hash the attestation signs.
        let clientDataHash = Digest.sha256(clientDataJSON)
        // Step 12: decode the attestation object.
        let field = "attestationObject"
        guard attestationObject.count <= maximumAttestationObjectLength else {
            throw .tooLarge(field: field, limit: maximumAttestationObjectLength)
        }
        let object = try CBORValue.decode(attestationObject, field: field)
        guard object.mapValue != nil else { throw .malformed(field: field, reason: "not a CBOR map") }
        guard let fmt = object[text: "fmt"]?.textValue else { throw .malformed(field: "\(field).fmt", reason: "missing or not text") }
        guard let statement = object[text: "attStmt"] else { throw .malformed(field: "\(field).attStmt", reason: "missing") }
        guard let authDataBytes = object[text: "authData"]?.bytesValue else {
            throw .malformed(field: "\(field).authData", reason: "missing or not bytes")
        }
        let authData = try AuthenticatorData(bytes: authDataBytes, field: "\(field).authData")
        // Steps 13-16: rpIdHash, UP, UV.
        try expected.check(authData)
        // Steps 19-20 and 25-26: attested credential data, its id's length, its key's algorithm.
        guard authData.flags.contains(.attestedCredentialData), let attested = authData.attestedCredentialData else {
            throw .missingAttestedCredentialData
        }
        if let credentialID, credentialID != attested.credentialID {
            throw .credentialMismatch("the response id is not the attested credential id")
        }
        // Steps 21-22: the attestation statement.
        let attestation = try AttestationStatement.verify(format: fmt, statement: statement, authData: authData,
                                                          clientDataHash: clientDataHash, credentialKey: attested.publicKey)
        return CredentialRecord(id: attested.credentialID, publicKey: attested.publicKey, signCount: authData.signCount,
                                backupEligible: authData.flags.contains(.backupEligible),
                                backupState: authData.flags.contains(.backupState),
                                transports: transports, aaguid: attested.aaguid, attestation: attestation)
    }
}
