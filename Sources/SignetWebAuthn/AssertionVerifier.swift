import SignetCrypto

/// Verifies an authentication ceremony (W3C WebAuthn §7.2 "Verifying an Authentication Assertion").
public enum AssertionVerifier {
    /// The longest signature accepted (RSA-16384).
    public static let maximumSignatureLength = 2048

    /// Runs §7.2 on a parsed response for the credential it names.
    public static func verify(_ response: AuthenticationResponse, credential: StoredCredential,
                              expecting expected: WebAuthnExpectation) throws(WebAuthnError) -> VerifiedAssertion {
        guard response.id == credential.id else { throw .credentialMismatch("the response names another credential") }
        return try verify(clientDataJSON: response.clientDataJSON, authenticatorData: response.authenticatorData,
                          signature: response.signature, userHandle: response.userHandle, credential: credential,
                          expecting: expected)
    }

    /// The same on the raw fields.
    public static func verify(clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?,
                              credential: StoredCredential, expecting expected: WebAuthnExpectation) throws(WebAuthnError) -> VerifiedAssertion {
        // Step 6: a user handle, when given, is the credential's user's.
        if let userHandle, !constantTimeEquals(userHandle, credential.userHandle) {
            throw .credentialMismatch("the user handle is not the credential's user")
        }
        // Steps 10-14: client data.
        let clientData = try CollectedClientData(json: clientDataJSON)
        try clientData.check(type: "webauthn.get", expected)
        // Steps 15-17: rpIdHash, UP, UV.
        let authData = try AuthenticatorData(bytes: authenticatorData)
        try expected.check(authData)
        // Step 19 (§6.1.3): BE is fixed for a credential's lifetime; BS may change.
        let backupEligible = authData.flags.contains(.backupEligible)
        guard backupEligible == credential.backupEligible else { throw .backupEligibilityChanged }
        // Steps 20-21: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
        guard signature.count <= maximumSignatureLength else { throw .tooLarge(field: "signature", limit: maximumSignatureLength) }
        let signed = authenticatorData + Digest.sha256(clientDataJSON)
        guard credential.publicKey.verify(signature: signature, message: signed) else { throw .badSignature }
        // Step 22: the signature counter.
        let counted = authData.signCount != 0 || credential.signCount != 0
        return VerifiedAssertion(signCount: authData.signCount,
                                 possibleClone: counted && authData.signCount <= credential.signCount,
                                 userVerified: authData.flags.contains(.userVerified), backupEligible: backupEligible,
                                 backupState: authData.flags.contains(.backupState))
    }
}
