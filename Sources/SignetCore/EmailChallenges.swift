import Foundation
import SignetCrypto
import SignetStore

/// Email challenges as logic: making the 6-digit code and the link, hashing them, throttling how
/// often they are sent, and answering them (once) through the store.
///
/// The code is uniform over 000000–999999 and stored as HMAC-SHA-256 under a subkey of the master
/// key, bound to the challenge id: a database alone does not let anyone try the million codes
/// offline (a plain SHA-256 of six digits would). The link token is 32 random bytes, stored as its
/// keyed hash. A code is tried at most 5 times; then the challenge is dead, link included.
public struct EmailChallenges: Sendable {
    let store: any EmailChallengeStore
    let throttle: any ThrottleStore
    let clock: any Clock
    let random: any RandomSource
    /// Keys the code, link, browser and throttle hashes.
    let hashKey: [UInt8]
    /// Seals the pending request a challenge continues.
    let sealKey: [UInt8]

    /// Wrong codes a challenge survives (RFC 4226 §7.3 asks for a limit; 5 is the issue's).
    public static let maxAttempts = 5
    /// Challenges sent to one address per purpose in `throttleWindow`.
    public static let perAddressLimit = 5
    /// Challenges sent to one address (so one account), every purpose together, in `throttleWindow`.
    public static let perAccountLimit = 10
    /// Challenges asked for from one client address in `throttleWindow`.
    public static let perClientLimit = 30
    /// The throttle window, seconds.
    public static let throttleWindow = 3600

    /// How long a challenge of `purpose` works: 10 minutes, 15 for a reset.
    public static func lifetime(_ purpose: EmailChallengePurpose) -> Int {
        purpose == .resetPassword ? 900 : 600
    }

    /// A challenge made but not stored yet, with the secrets that go into its mail.
    public struct Issued: Sendable {
        /// The row to store.
        public var record: EmailChallengeRecord
        /// The 6-digit code.
        public var code: String
        /// The link token (`sgl_…`).
        public var linkToken: String
        /// Whole minutes it works.
        public var minutes: Int { Int(record.expiresAt.timeIntervalSince(record.createdAt)) / 60 }
    }

    /// The service; the keys come from `masterKey.tokenHashKey`.
    public init(store: any EmailChallengeStore, throttle: any ThrottleStore, clock: any Clock, random: any RandomSource,
                tokenHashKey: [UInt8]) {
        self.store = store
        self.throttle = throttle
        self.clock = clock
        self.random = random
        self.hashKey = HMAC.sha256(key: tokenHashKey, message: Array("signet/v1/email-challenge".utf8))
        self.sealKey = HMAC.sha256(key: tokenHashKey, message: Array("signet/v1/email-challenge-seal".utf8))
    }

    /// Counts one challenge for `email` from `clientAddress`; false (nothing counted) when a
    /// limit is reached: per address and purpose, per address over every purpose (the account's
    /// limit: one address is one account), and per client address. No limit depends on whether
    /// the address has an account, so being throttled tells nothing about it.
    ///
    /// `accountEmail`, for a change of address, is the account's current address: its account
    /// limit counts too, so one account cannot send codes to ever new addresses.
    public func admit(purpose: EmailChallengePurpose, email: String, clientAddress: String, accountEmail: String? = nil) throws -> Bool {
        var limits = [
            ThrottleLimit(key: throttleKey("address/\(purpose.rawValue)", email), limit: Self.perAddressLimit, windowSeconds: Self.throttleWindow),
            ThrottleLimit(key: throttleKey("account", email), limit: Self.perAccountLimit, windowSeconds: Self.throttleWindow),
            ThrottleLimit(key: throttleKey("client", clientAddress), limit: Self.perClientLimit, windowSeconds: Self.throttleWindow),
        ]
        if let accountEmail, accountEmail != email {
            limits.append(ThrottleLimit(key: throttleKey("account", accountEmail), limit: Self.perAccountLimit, windowSeconds: Self.throttleWindow))
        }
        return try throttle.hitIfUnder(limits, now: clock.now)
    }

    /// A new challenge for `email`. `userID` nil makes one that can never be answered (for an
    /// address without an account). `browserValue` binds it to the browser that asked;
    /// `requestHandle` is the pending authorization request to continue, kept sealed.
    public func make(purpose: EmailChallengePurpose, email: String, userID: String?, browserValue: String?,
                     requestHandle: String?) throws -> Issued {
        let now = clock.now
        let id = "sge_" + Base64URL.encode(random.bytes(16))
        let code = sixDigits()
        let linkToken = "sgl_" + Base64URL.encode(random.bytes(32))
        let sealed = try requestHandle.map { try AESGCM.seal(Array($0.utf8), key: sealKey, associatedData: Array(id.utf8)) }
        let record = EmailChallengeRecord(
            id: id, purpose: purpose, email: email, userID: userID, codeHash: codeHash(id: id, code: code),
            linkHash: linkHash(linkToken), browserHash: browserValue.map(browserHash), sealedRequest: sealed,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(Self.lifetime(purpose))))
        return Issued(record: record, code: code, linkToken: linkToken)
    }

    /// Stores the challenge, its mail and, when given, the new user it verifies and an audit event,
    /// in one transaction (`.duplicate` when the user's address is taken: nothing is stored).
    public func store(_ issued: Issued, mail: OutboxMessageRecord?, newUser: UserRecord? = nil, audit: AuditEvent? = nil) throws {
        try store.insertChallenge(issued.record, mail: mail, newUser: newUser, audit: audit)
    }

    /// The challenge `id`, if it is still usable (unused, unexpired, attempts left).
    public func usable(id: String) throws -> EmailChallengeRecord? {
        guard id.hasPrefix("sge_"), id.utf8.count <= 64, let record = try store.challenge(id: id) else { return nil }
        return isUsable(record) ? record : nil
    }

    /// The challenge of a link token, if it is still usable.
    public func usable(linkToken: String) throws -> EmailChallengeRecord? {
        guard linkToken.hasPrefix("sgl_"), linkToken.utf8.count <= 64,
              let record = try store.challenge(linkHash: linkHash(linkToken)) else { return nil }
        return isUsable(record) ? record : nil
    }

    /// Answers challenge `id` with `code` (spaces ignored); a code that is not six digits is not
    /// counted and comes back as `nil`.
    public func answer(id: String, purpose: EmailChallengePurpose, code rawCode: String) throws -> EmailCodeOutcome? {
        let code = rawCode.filter { $0 != " " && $0 != "-" }
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        guard id.hasPrefix("sge_"), id.utf8.count <= 64 else { return .dead }
        return try store.answer(id: id, purpose: purpose, codeHash: codeHash(id: id, code: code), maxAttempts: Self.maxAttempts,
                                now: clock.now)
    }

    /// Answers the challenge of a link token: the record for exactly one caller.
    public func answer(linkToken: String, purpose: EmailChallengePurpose) throws -> EmailChallengeRecord? {
        guard linkToken.hasPrefix("sgl_"), linkToken.utf8.count <= 64 else { return nil }
        return try store.answer(linkHash: linkHash(linkToken), purpose: purpose, maxAttempts: Self.maxAttempts, now: clock.now)
    }

    /// Whether `browserValue` is the one the challenge was asked from (constant time).
    public func isSameBrowser(_ record: EmailChallengeRecord, browserValue: String?) -> Bool {
        guard let expected = record.browserHash, let browserValue else { return false }
        return constantTimeEquals(browserHash(browserValue), expected)
    }

    /// The pending request handle the challenge continues, or nil.
    public func requestHandle(of record: EmailChallengeRecord) -> String? {
        guard let sealed = record.sealedRequest,
              let plain = try? AESGCM.open(sealed, key: sealKey, associatedData: Array(record.id.utf8)) else { return nil }
        return String(decoding: plain, as: UTF8.self)
    }

    func isUsable(_ record: EmailChallengeRecord) -> Bool {
        record.consumedAt == nil && record.expiresAt > clock.now && record.attempts < Self.maxAttempts
    }

    /// Six uniform decimal digits (rejection sampling: no modulo bias).
    func sixDigits() -> String {
        while true {
            let bytes = random.bytes(4)
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let limit = UInt32.max - UInt32.max % 1_000_000
            if value < limit {
                let digits = String(value % 1_000_000)
                return String(repeating: "0", count: 6 - digits.count) + digits
            }
        }
    }

    func codeHash(id: String, code: String) -> [UInt8] {
        HMAC.sha256(key: hashKey, message: Array("code/\(id)/\(code)".utf8))
    }

    func linkHash(_ token: String) -> [UInt8] {
        HMAC.sha256(key: hashKey, message: Array("link/\(token)".utf8))
    }

    func browserHash(_ value: String) -> [UInt8] {
        HMAC.sha256(key: hashKey, message: Array("browser/\(value)".utf8))
    }

    func throttleKey(_ kind: String, _ value: String) -> String {
        "email:\(kind):" + Base64URL.encode(HMAC.sha256(key: hashKey, message: Array("throttle/\(kind)/\(value)".utf8)))
    }
}
