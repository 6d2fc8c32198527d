import Foundation
import SignetCrypto
import SignetStore

/// TOTP factors (RFC 6238, see `TOTP`) and recovery codes: enrolment, confirmation with a first
/// code, verification at sign-in, removal.
///
/// - The secret is stored only sealed (AES-256-GCM under `MasterKey.secondFactorKey`, the user id
///   as associated data, so a sealed secret moved to another user's row does not open).
/// - A step is accepted once (`SecondFactorStore.useTOTPStep` is one conditional update).
/// - Recovery codes: 10, 50 random bits each, shown once, stored as keyed hashes, each good once.
/// - Attempts are throttled per account: `policy.secondFactorAttemptLimit` per
///   `secondFactorAttemptWindow`, checked and counted in one atomic step before the code is
///   looked at; a success gives its attempt back.
/// - The throttle alone still allows hundreds of guesses a day, so `policy.secondFactorLockAfter`
///   wrong codes in a row lock the TOTP factor (NIST SP 800-63B §5.2.2): a TOTP code is then
///   refused unread, even the right one; a recovery code still signs in and unlocks it, as does
///   an operator (`unlock`).
public struct SecondFactorService: Sendable {
    let store: any SecondFactorStore
    let throttle: any ThrottleStore
    let auditor: Auditor
    let clock: any Clock
    let random: any RandomSource
    /// `MasterKey.secondFactorKey`.
    let key: [UInt8]
    let attemptLimit: Int
    let attemptWindow: Int
    /// `policy.secondFactorLockAfter`.
    public let lockAfter: Int

    /// Recovery codes made at confirmation (and on request).
    public static let recoveryCodeCount = 10
    /// How long an unconfirmed enrolment's secret is shown again (a reload, a mistyped first code).
    public static let enrolmentLifetime: TimeInterval = 600

    /// What a typed second-factor code did.
    public enum Outcome: Sendable, Equatable {
        /// A TOTP code of a step not used before.
        case totp
        /// An unused recovery code, now used.
        case recoveryCode
        /// Wrong, replayed or already used.
        case refused
        /// Too many attempts on this account: the code was not looked at.
        case throttled
        /// The TOTP factor is locked: a TOTP code was refused unread, or this wrong code locked
        /// it (`justNow`: tell the owner). A recovery code still works and unlocks it.
        case locked(justNow: Bool)
    }

    /// Whether the user has a confirmed TOTP factor.
    public func hasFactor(userID: String) throws -> Bool {
        try store.totpFactor(userID: userID)?.isConfirmed ?? false
    }

    /// The secret to show for enrolment: the unconfirmed one still fresh (so a reload shows the
    /// same QR code), or a new one. Nil when the user already has a confirmed factor.
    public func enrolment(userID: String) throws -> TOTP? {
        let now = clock.now
        if let existing = try store.totpFactor(userID: userID) {
            if existing.isConfirmed { return nil }
            if now.timeIntervalSince(existing.createdAt) < Self.enrolmentLifetime, let secret = try? open(existing) {
                return TOTP(secret: secret)
            }
        }
        let totp = TOTP.generate(random: random)
        let sealed = try AESGCM.seal(totp.secret, key: key, associatedData: associatedData(userID))
        guard try store.putUnconfirmedTOTP(TOTPFactorRecord(userID: userID, sealedSecret: sealed, createdAt: now)) else { return nil }
        return totp
    }

    /// Confirms the enrolment with a first code. Returns the recovery codes to show once, or the
    /// refusal (`.refused` also when there is no fresh enrolment).
    public func confirm(userID: String, code: String) throws -> Result<[String], Refusal> {
        let now = clock.now
        guard try takeAttempt(userID: userID, now: now) else { return .failure(.throttled) }
        guard let pending = try store.totpFactor(userID: userID), !pending.isConfirmed,
              now.timeIntervalSince(pending.createdAt) < Self.enrolmentLifetime,
              let secret = try? open(pending),
              let step = TOTP(secret: secret).matchingStep(code, at: now, after: nil) else {
            auditor.record("totp_enrolment_failed", subject: userID)
            return .failure(.refused)
        }
        let codes = makeRecoveryCodes()
        guard try store.confirmTOTP(userID: userID, sealedSecret: pending.sealedSecret, step: step, at: now,
                                    recoveryCodeHashes: codes.map { recoveryHash(userID: userID, code: $0) }) else {
            return .failure(.refused)
        }
        try giveBackAttempt(userID: userID, now: now)
        auditor.record("totp_enrolled", subject: userID)
        return .success(codes)
    }

    /// Why a confirmation was refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// Wrong code, or no fresh enrolment.
        case refused
        /// Too many attempts.
        case throttled
    }

    /// Checks a code typed at sign-in: six digits are a TOTP code, anything else a recovery code.
    public func verify(userID: String, code: String) throws -> Outcome {
        let now = clock.now
        guard try takeAttempt(userID: userID, now: now) else {
            auditor.record("second_factor_throttled", subject: userID)
            return .throttled
        }
        var outcome: Outcome
        let digits = code.filter { $0 != " " }
        if digits.count == TOTP.digits, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
            if try store.totpFactor(userID: userID)?.isLocked == true {
                auditor.record("second_factor_locked_refused", subject: userID)
                return .locked(justNow: false)
            }
            outcome = try verifyTOTP(userID: userID, code: digits, now: now) ? .totp : .refused
        } else if let normalized = Self.normalizedRecoveryCode(code),
                  try store.totpFactor(userID: userID)?.isConfirmed == true,
                  try store.useRecoveryCode(userID: userID, codeHash: recoveryHash(userID: userID, code: normalized), at: now) {
            outcome = .recoveryCode
            if try store.unlockTOTP(userID: userID) { auditor.record("totp_unlocked", subject: userID, detail: ["via": .string("recovery_code")]) }
        } else {
            outcome = .refused
        }
        if outcome == .refused {
            auditor.record("second_factor_failed", subject: userID)
            let failures = try store.recordTOTPFailure(userID: userID, lockAfter: lockAfter, at: now)
            if failures == lockAfter {
                auditor.record("totp_locked", subject: userID, detail: ["failures": .int(Int64(failures))])
                outcome = .locked(justNow: true)
            } else if failures > lockAfter {
                outcome = .locked(justNow: false)
            }
        } else {
            try giveBackAttempt(userID: userID, now: now)
            auditor.record(outcome == .totp ? "second_factor_totp" : "second_factor_recovery_code", subject: userID)
        }
        return outcome
    }

    /// Whether the user's TOTP factor is locked.
    public func isLocked(userID: String) throws -> Bool { try store.totpFactor(userID: userID)?.isLocked ?? false }

    /// An operator's unlock (`signet users unlock-totp`, the admin API); `via` goes into the audit
    /// event. True when the factor was locked.
    @discardableResult
    public func unlock(userID: String, via: String, actor: String? = nil) throws -> Bool {
        guard try store.unlockTOTP(userID: userID) else { return false }
        auditor.record("totp_unlocked", actor: actor, subject: userID, detail: ["via": .string(via)])
        return true
    }

    /// How many unused recovery codes the user has.
    public func unusedRecoveryCodes(userID: String) throws -> Int { try store.unusedRecoveryCodes(userID: userID) }

    /// New recovery codes replacing the old ones (shown once), or nil without a factor.
    public func regenerateRecoveryCodes(userID: String) throws -> [String]? {
        let codes = makeRecoveryCodes()
        guard try store.replaceRecoveryCodes(userID: userID, hashes: codes.map { recoveryHash(userID: userID, code: $0) },
                                             at: clock.now) else { return nil }
        auditor.record("recovery_codes_replaced", subject: userID)
        return codes
    }

    /// Removes the factor and its recovery codes.
    public func remove(userID: String) throws {
        if try store.removeSecondFactors(userID: userID) { auditor.record("totp_removed", subject: userID) }
    }

    // MARK: parts

    private func verifyTOTP(userID: String, code: String, now: Date) throws -> Bool {
        guard let factor = try store.totpFactor(userID: userID), factor.isConfirmed, let secret = try? open(factor),
              let step = TOTP(secret: secret).matchingStep(code, at: now, after: factor.lastUsedStep) else { return false }
        // RFC 6238 §5.2: the verifier must not accept the second attempt of a code after the first
        // succeeded; the conditional update decides between racing requests.
        return try store.useTOTPStep(userID: userID, step: step)
    }

    private func open(_ factor: TOTPFactorRecord) throws -> [UInt8] {
        try AESGCM.open(factor.sealedSecret, key: key, associatedData: associatedData(factor.userID))
    }

    private func associatedData(_ userID: String) -> [UInt8] { Array("signet/totp/\(userID)".utf8) }

    private var throttleLabel: String { "signet/second-factor-throttle/" }

    private func throttleKey(_ userID: String) -> String {
        "mfa:" + Base64URL.encode(HMAC.sha256(key: key, message: Array((throttleLabel + userID).utf8)))
    }

    private func takeAttempt(userID: String, now: Date) throws -> Bool {
        try throttle.hitIfUnder([ThrottleLimit(key: throttleKey(userID), limit: attemptLimit, windowSeconds: attemptWindow)], now: now)
    }

    private func giveBackAttempt(userID: String, now: Date) throws {
        try throttle.removeHit(keys: [throttleKey(userID)], at: now)
    }

    /// The alphabet of recovery codes: RFC 4648 base32 letters and digits without 0, 1, 8 and O, I, B look-alikes.
    static let recoveryAlphabet = Array("ACDEFGHJKLMNPQRSTUVWXYZ2345679")

    /// Ten characters (about 49 bits) shown as `XXXXX-XXXXX`.
    private func makeRecoveryCodes() -> [String] {
        (0..<Self.recoveryCodeCount).map { _ in
            var characters: [Character] = []
            while characters.count < 10 {
                for byte in random.bytes(16) where characters.count < 10 && Int(byte) < 240 {
                    characters.append(Self.recoveryAlphabet[Int(byte) % Self.recoveryAlphabet.count])
                }
            }
            return String(characters[0..<5]) + "-" + String(characters[5...])
        }
    }

    /// A typed recovery code in its stored form (`XXXXX-XXXXX`, upper case; spaces and the dash
    /// optional), or nil when it cannot be one.
    static func normalizedRecoveryCode(_ typed: String) -> String? {
        let characters = typed.uppercased().filter { $0 != " " && $0 != "-" }
        guard characters.count == 10, characters.allSatisfy({ recoveryAlphabet.contains($0) }) else { return nil }
        let array = Array(characters)
        return String(array[0..<5]) + "-" + String(array[5...])
    }

    private func recoveryHash(userID: String, code: String) -> [UInt8] {
        let normalized = Self.normalizedRecoveryCode(code) ?? code
        return HMAC.sha256(key: key, message: Array("signet/recovery-code/\(userID)/\(normalized)".utf8))
    }
}

extension SecondFactorService {
    /// The service over a store without a running server (an operator's unlock from the CLI or
    /// the admin API); `key` is `MasterKey.secondFactorKey`.
    public init(storage: any SignetStorage, policy: ServerPolicy, auditor: Auditor, clock: any Clock, random: any RandomSource,
                key: [UInt8]) {
        self.init(store: storage.secondFactors, throttle: storage.throttle, auditor: auditor, clock: clock, random: random, key: key,
                  attemptLimit: policy.secondFactorAttemptLimit, attemptWindow: policy.secondFactorAttemptWindow,
                  lockAfter: policy.secondFactorLockAfter)
    }

    /// Creates the service; `key` is `MasterKey.secondFactorKey`.
    public init(server: AuthorizationServer, key: [UInt8]) {
        self.init(store: server.storage.secondFactors, throttle: server.storage.throttle, auditor: server.auditor,
                  clock: server.clock, random: server.random, key: key, attemptLimit: server.policy.secondFactorAttemptLimit,
                  attemptWindow: server.policy.secondFactorAttemptWindow, lockAfter: server.policy.secondFactorLockAfter)
    }
}
