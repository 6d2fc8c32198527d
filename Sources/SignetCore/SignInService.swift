import Foundation
import SignetCrypto
import SignetStore

/// Password sign-in with throttling per account and client address, per client address, and per
/// account.
///
/// Every failure looks the same to the caller (`nil`): unknown email, wrong password, disabled
/// user, account without a password, or throttled. Throttling counts failures in sliding windows
/// (defaults: 5 per account and address per 15 minutes, `signInAccountFailureLimit`; 30 per
/// address, `signInAddressFailureLimit`; once an account has 50 failures from anywhere,
/// `signInAccountAttackThreshold`, 1 per account and address). Once a limit is reached the password
/// is not checked at all. The check and the count are one atomic store step
/// (`ThrottleStore.hitIfUnder`): an attempt reserves its failure before the password is checked,
/// so concurrent attempts cannot all pass the check; a success gives its reservation back and
/// clears the account-and-address counter. The account-wide counter never refuses on its own:
/// a guesser spread over many addresses can slow the account down but never lock its owner
/// out. Counter keys are keyed hashes, so the store never holds an email or an address in clear.
public struct SignInService: Sendable {
    /// Accounts and password checks.
    public let users: UserService
    let throttle: any ThrottleStore
    let auditor: Auditor
    let clock: any Clock
    /// The limits and windows.
    let policy: ServerPolicy
    /// Keys the counter names.
    let keyKey: [UInt8]

    /// Checks the credentials; returns the user on success and nil for every kind of failure.
    /// `clientAddress` is the key the client is counted under (an IPv6 client by its /64).
    public func signIn(email: String, password: String, clientAddress: String) throws -> UserRecord? {
        let now = clock.now
        let normalized = (try? EmailAddress.normalize(email)) ?? email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let accountKey = counterKey("account", normalized)
        let pairKey = counterKey("account-address", normalized + "\n" + clientAddress)
        let addressKey = counterKey("address", clientAddress)
        let underAttack = try throttle.hitCount(key: accountKey, windowSeconds: policy.signInAccountWindow, now: now)
            >= policy.signInAccountAttackThreshold
        let limits = [
            ThrottleLimit(key: pairKey, limit: underAttack ? 1 : policy.signInAccountFailureLimit, windowSeconds: policy.signInAccountWindow),
            ThrottleLimit(key: addressKey, limit: policy.signInAddressFailureLimit, windowSeconds: policy.signInAddressWindow),
            ThrottleLimit(key: accountKey, limit: Int.max, windowSeconds: policy.signInAccountWindow),
        ]
        guard try throttle.hitIfUnder(limits, now: now) else {
            auditor.record("sign_in_throttled", method: "pwd", reason: "throttled")
            return nil
        }
        guard let user = try users.authenticate(email: normalized, password: password) else {
            auditor.record("sign_in_failed", method: "pwd", reason: "invalid_credentials")
            return nil
        }
        try throttle.removeHit(keys: [addressKey, accountKey], at: now)
        try throttle.resetHits(key: pairKey)
        auditor.record("sign_in", actor: "user:\(user.id)", subject: user.id, method: "pwd")
        return user
    }

    private func counterKey(_ kind: String, _ value: String) -> String {
        "signin:\(kind):" + Base64URL.encode(HMAC.sha256(key: keyKey, message: Array("signin/\(kind)/\(value)".utf8)))
    }
}

extension SignInService {
    /// Creates the service; `hashKey` keys the counter names (use `MasterKey.tokenHashKey`).
    public init(server: AuthorizationServer, users: UserService, hashKey: [UInt8]) {
        self.init(users: users, throttle: server.storage.throttle, auditor: server.auditor, clock: server.clock,
                  policy: server.policy, keyKey: hashKey)
    }
}
