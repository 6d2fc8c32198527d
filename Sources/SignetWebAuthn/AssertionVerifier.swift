import SignetCrypto

/// What the caller stored about a credential, as an assertion needs it.
public struct StoredCredential: Sendable, Hashable {
    /// The credential id.
    public let id: [UInt8]
    /// The user handle (`user.id`) the credential was registered for.
    public let userHandle: [UInt8]
    /// The credential public key.
    public let publicKey: COSEKey
    /// The last signature counter seen.
    public let signCount: UInt32
    /// BE as registered.
    public let backupEligible: Bool

    /// A stored credential.
    public init(id: [UInt8], userHandle: [UInt8], publicKey: COSEKey, signCount: UInt32, backupEligible: Bool) {
        self.id = id
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
    }
}

/// The outcome of a verified assertion: what to store and what to tell the token issuer.
public struct VerifiedAssertion: Sendable, Hashable {
    /// The authenticator's new signature counter (store it).
    public let signCount: UInt32
    /// §7.2 step 22: a counter that did not increase while either value is non-zero: the
    /// authenticator may have been cloned. The signature is valid; the caller decides.
    public let possibleClone: Bool
    /// UV (always true: required).
    public let userVerified: Bool
    /// BE (unchanged from registration).
    public let backupEligible: Bool
    /// BS now (store it: it may change).
    public let backupState: Bool

    /// RFC 8176 `amr` values: `hwk` for a device-bound key or `swk` for a syncable one, and
    /// `user` for the user verification that was required.
    public var amr: [String] {
        [backupEligible ? "swk" : "hwk", "user"]
    }
}

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
