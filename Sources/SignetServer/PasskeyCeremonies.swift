import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetMail
import SignetStore
import SignetWebAuthn
import SignetWire

/// The server's half of the WebAuthn ceremonies: issues challenges (stored only as keyed hashes,
/// five minutes, used once), runs SignetWebAuthn's verification on the response, and stores what
/// it returns. Every refusal is an `OAuthError` whose description says what was wrong, and leaves
/// the credentials and sessions as they were (the challenge is used up by any attempt).
struct PasskeyCeremonies: Sendable {
    /// Its storage (passkeys, ceremonies, users, throttle), token hashes, randomness, clock and audit trail.
    let server: AuthorizationServer
    /// The RP ID and the accepted origins.
    let rpID: String
    let origins: Set<String>
    let rpName: String
    /// The rate limit of the options per client address, and the bound of the ceremony table.
    let optionsPerMinute: Int
    let maximumCeremonies: Int
    /// The outbox for the "a passkey was added" notice (nil without `mail.smtp_url`), and its brand.
    let mail: MailQueue?
    let brand: AccountMail.Brand

    /// W3C WebAuthn §13.4.3: a challenge of at least 16 random bytes; Signet uses 32.
    static let challengeLength = 32
    /// How long an issued challenge stays usable (and the ceremony's `timeout`).
    static let lifetime: TimeInterval = 300
    /// The longest name a passkey may be given.
    static let maximumNameLength = 64

    init(server: AuthorizationServer, configuration: SignetConfiguration, mail: MailQueue) {
        self.server = server
        self.mail = configuration.isMailConfigured ? mail : nil
        brand = configuration.brand()
        rpID = configuration.passkeyRPID
        origins = configuration.passkeyOrigins
        rpName = configuration.issuerHost ?? "Signet"
        optionsPerMinute = configuration.passkeys.optionsPerMinute
        maximumCeremonies = configuration.passkeys.maxCeremonies
    }

    /// The passkeys and their ceremonies.
    var store: any PasskeyStore { server.storage.passkeys }

    /// The keyed hash a challenge is stored under.
    func challengeHash(_ challenge: [UInt8]) -> [UInt8] { server.tokens.hash("passkey-challenge:" + Base64URL.encode(challenge)) }

    /// A keyed hash binding a ceremony to what its response must come with.
    func binding(_ parts: String...) -> [UInt8] { server.tokens.hash("passkey-binding:" + parts.joined(separator: "\u{0}")) }

    /// The WebAuthn user handle of an account: its id's bytes (opaque, never the email, §14.6.1).
    static func userHandle(_ user: UserRecord) -> [UInt8] { Array(user.id.utf8) }

    /// The window of `optionsPerMinute`, and the `Retry-After` of a refusal.
    static let rateWindow = 60

    /// Counts one request for options from `clientAddress` (`HTTPRequest.clientKey`, hashed
    /// before it is a key); false when the address has asked `passkeys.options_per_minute`
    /// times in the last minute already (then the caller answers 429, RFC 6585 §4).
    func admit(clientAddress: String) throws -> Bool {
        let key = "passkey_options:" + Base64URL.encode(server.tokens.hash("address:" + clientAddress).prefix(16))
        return try server.storage.throttle.hitIfUnder([ThrottleLimit(key: key, limit: optionsPerMinute, windowSeconds: Self.rateWindow)],
                                                      now: server.clock.now)
    }

    /// Issues and stores a challenge, within the table's bound (`passkeys.max_ceremonies`): a
    /// flood of options from many addresses cannot grow `passkey_ceremonies` without limit.
    private func issue(_ kind: PasskeyCeremonyRecord.Kind, userID: String?, binding: [UInt8], context: String) throws -> [UInt8] {
        let challenge = server.random.bytes(Self.challengeLength)
        let now = server.clock.now
        let record = PasskeyCeremonyRecord(challengeHash: challengeHash(challenge), kind: kind, userID: userID, binding: binding,
                                           context: context, createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime))
        guard try store.insertCeremony(record, maximumRows: maximumCeremonies) else {
            throw OAuthError(.temporarilyUnavailable, "Too many passkey requests are open; try again in a few minutes.")
                .telling(PasskeyErrorText.tooManyOpen)
        }
        return challenge
    }

    // MARK: registration

    /// `PublicKeyCredentialCreationOptionsJSON` for a signed-in user; the user's credentials are
    /// excluded so one authenticator is not registered twice.
    func registrationOptions(user: UserRecord, binding: [UInt8], context: String) throws -> JSONValue {
        let handle = Self.userHandle(user)
        let existing = try store.passkeys(userID: user.id).map { CredentialDescriptor(id: $0.id, transports: $0.transports) }
        let challenge = try issue(.registration, userID: user.id, binding: binding, context: context)
        do throws(WebAuthnError) {
            let entity = try UserEntity(id: handle, name: user.email, displayName: user.name ?? user.email)
            return try CreationOptions(rpID: rpID, rpName: rpName, user: entity, challenge: challenge,
                                       timeoutMilliseconds: Int(Self.lifetime * 1000), excludeCredentials: existing).json
        } catch {
            throw OAuthError.serverError(detail: "passkey options: \(error)")
        }
    }

    /// Verifies a `RegistrationResponseJSON` and stores the credential for the ceremony's user,
    /// with the notice to the account's address (in `language`) in the same transaction: a
    /// passkey never appears without its owner being told.
    func finishRegistration(_ body: [UInt8], binding: [UInt8], name: String, language: PageLanguage) throws -> PasskeyRecord {
        let response: RegistrationResponse
        do throws(WebAuthnError) { response = try RegistrationResponse(json: body) } catch { throw Self.refusal(error) }
        let ceremony = try consume(response.clientDataJSON, kind: .registration, binding: binding)
        guard let userID = ceremony.userID, let user = try server.storage.users.user(id: userID), user.disabledAt == nil else {
            throw OAuthError(.accessDenied, "The account cannot add passkeys.").telling(PasskeyErrorText.cannotAdd)
        }
        let credential: CredentialRecord
        do throws(WebAuthnError) {
            credential = try RegistrationVerifier.verify(response, expecting: expectation(ceremony, challenge: try challenge(of: response.clientDataJSON)))
        } catch {
            throw Self.refusal(error)
        }
        let record = PasskeyRecord(id: credential.id, userID: user.id, publicKey: credential.publicKey.bytes,
                                   signCount: Int64(credential.signCount), backupEligible: credential.backupEligible,
                                   backupState: credential.backupState, transports: credential.transports,
                                   name: Self.cleanName(name, fallback: (credential.backupEligible ? PasskeyText.defaultNameSynced : PasskeyText.defaultNameDevice).localized.en),
                                   createdAt: server.clock.now)
        // An address SMTP cannot carry (MailError, whose text holds no address) loses the notice, not the passkey.
        let notice: OutboxMessageRecord?
        do {
            notice = try mail.map { try $0.seal(.passkeyAdded(manageLink: server.policy.issuer + Routes.accountPasskeys), to: user.email, brand: brand,
                                                language: language) }
        } catch {
            Log.error("passkey registration: the notice could not be made: \(error)")
            notice = nil
        }
        do { try store.insertPasskey(record, notice: notice) } catch StoreError.duplicate {
            throw OAuthError.invalidRequest("This passkey is registered already.").telling(PasskeyErrorText.alreadyRegistered)
        }
        if notice != nil { mail?.notifySender() }
        server.auditor.record("passkey_registered", subject: user.id, detail: ["backup_eligible": .bool(record.backupEligible),
                                                                               "attestation": .string(credential.attestationFormat)])
        return record
    }

    // MARK: assertion

    /// `PublicKeyCredentialRequestOptionsJSON` for a discoverable credential (no user named).
    func assertionOptions(binding: [UInt8], context: String) throws -> JSONValue {
        let challenge = try issue(.assertion, userID: nil, binding: binding, context: context)
        do throws(WebAuthnError) {
            return try RequestOptions(rpID: rpID, challenge: challenge, timeoutMilliseconds: Int(Self.lifetime * 1000)).json
        } catch {
            throw OAuthError.serverError(detail: "passkey options: \(error)")
        }
    }

    /// What a verified assertion signs in.
    struct SignedIn: Sendable {
        let user: UserRecord
        /// RFC 8176 §2: `hwk`/`swk` and `user`.
        let amr: [String]
        /// The ceremony's context (the pending request's handle).
        let context: String
    }

    /// Verifies an `AuthenticationResponseJSON` for the stored credential it names and records its
    /// use. A counter that did not increase flags the credential and is refused.
    func finishAssertion(_ body: [UInt8], binding: [UInt8]) throws -> SignedIn {
        let response: AuthenticationResponse
        do throws(WebAuthnError) { response = try AuthenticationResponse(json: body) } catch { throw Self.refusal(error) }
        let ceremony = try consume(response.clientDataJSON, kind: .assertion, binding: binding)
        guard let stored = try store.passkey(id: response.id) else {
            throw OAuthError(.accessDenied, "This passkey is not registered here.").telling(PasskeyErrorText.notRegistered)
        }
        guard stored.flaggedAt == nil else {
            throw OAuthError(.accessDenied, "This passkey was blocked because its counter went backwards; remove it and add it again.")
                .telling(PasskeyErrorText.blocked)
        }
        guard let user = try server.storage.users.user(id: stored.userID), user.disabledAt == nil else {
            throw OAuthError(.accessDenied, "This passkey is not registered here.").telling(PasskeyErrorText.notRegistered)
        }
        let verified: VerifiedAssertion
        do throws(WebAuthnError) {
            let key = try COSEKey(bytes: stored.publicKey)
            let credential = StoredCredential(id: stored.id, userHandle: Self.userHandle(user), publicKey: key,
                                              signCount: UInt32(clamping: stored.signCount), backupEligible: stored.backupEligible)
            verified = try AssertionVerifier.verify(response, credential: credential,
                                                    expecting: expectation(ceremony, challenge: try challenge(of: response.clientDataJSON)))
        } catch {
            throw Self.refusal(error)
        }
        // W3C WebAuthn §7.2 step 22: a counter that did not increase may mean a cloned authenticator.
        if verified.possibleClone {
            try store.flagPasskey(id: stored.id, at: server.clock.now)
            server.auditor.record("passkey_flagged", subject: user.id, detail: ["reason": "sign counter did not increase"])
            throw OAuthError(.accessDenied, "This passkey's signature counter went backwards, so it was blocked; remove it and add it again.")
                .telling(PasskeyErrorText.blocked)
        }
        guard try store.recordPasskeyUse(id: stored.id, signCount: Int64(verified.signCount), backupState: verified.backupState,
                                         at: server.clock.now) else {
            throw OAuthError(.accessDenied, "This passkey was used at the same moment elsewhere; try again.").telling(PasskeyErrorText.raced)
        }
        server.auditor.record("passkey_signed_in", subject: user.id)
        return SignedIn(user: user, amr: verified.amr, context: ceremony.context)
    }

    // MARK: shared

    /// The challenge in `clientDataJSON` (its shape is checked again by the verifier).
    private func challenge(of clientDataJSON: [UInt8]) throws(WebAuthnError) -> [UInt8] {
        try CollectedClientData(json: clientDataJSON).challenge
    }

    /// Uses the ceremony whose challenge the client data carries, once, if it was issued for this
    /// kind and this binding.
    private func consume(_ clientDataJSON: [UInt8], kind: PasskeyCeremonyRecord.Kind, binding: [UInt8]) throws -> PasskeyCeremonyRecord {
        let challenge: [UInt8]
        do throws(WebAuthnError) { challenge = try self.challenge(of: clientDataJSON) } catch { throw Self.refusal(error) }
        guard let ceremony = try store.consumeCeremony(challengeHash: challengeHash(challenge), kind: kind, now: server.clock.now) else {
            throw OAuthError.invalidRequest("The passkey challenge is unknown, expired or already used; start again.")
                .telling(PasskeyErrorText.challengeGone)
        }
        guard constantTimeEquals(ceremony.binding, binding) else {
            throw OAuthError(.accessDenied, "The passkey challenge was issued to another session.").telling(PasskeyErrorText.otherSession)
        }
        return ceremony
    }

    private func expectation(_ ceremony: PasskeyCeremonyRecord, challenge: [UInt8]) -> WebAuthnExpectation {
        WebAuthnExpectation(challenge: challenge, origins: origins, rpID: rpID)
    }

    /// A WebAuthn refusal as the client sees it: its text names the field or the check and never
    /// holds the challenge, a signature or key material (WebAuthnError's contract).
    static func refusal(_ error: WebAuthnError) -> OAuthError {
        switch error {
        case .badSignature, .credentialMismatch, .backupEligibilityChanged:
            OAuthError(.accessDenied, error.description).telling(PasskeyErrorText.notVerified)
        default:
            OAuthError.invalidRequest(error.description).telling(PasskeyErrorText.notVerified)
        }
    }

    /// A passkey's name as stored: trimmed, control characters removed, at most 64 characters.
    static func cleanName(_ name: String, fallback: String) -> String {
        let cleaned = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
            .trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? fallback : String(cleaned.prefix(maximumNameLength))
    }
}
