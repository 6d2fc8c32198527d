import Foundation
import SignetCrypto
import SignetStore

/// Password sign-in with throttling per account and per client address.
///
/// Every failure looks the same to the caller (`nil`): unknown email, wrong password, disabled
/// user, account without a password, or throttled. Throttling counts failures in a sliding window
/// (`ServerPolicy.signInAccountFailureLimit` per `signInAccountWindow`, default 5 per 15 minutes,
/// and `signInAddressFailureLimit` per `signInAddressWindow`, default 30 per 15 minutes); once a
/// limit is reached the password is not checked at all. Counter keys are keyed hashes, so the
/// store never holds an email or an address in clear. A success clears the account's counter.
public struct SignInService: Sendable {
    /// Accounts and password checks.
    public let users: UserService
    let server: AuthorizationServer
    private let keyKey: [UInt8]

    /// Creates the service; `hashKey` keys the counter names (use `MasterKey.tokenHashKey`).
    public init(server: AuthorizationServer, users: UserService, hashKey: [UInt8]) {
        self.server = server
        self.users = users
        self.keyKey = hashKey
    }

    /// Checks the credentials; returns the user on success and nil for every kind of failure.
    public func signIn(email: String, password: String, clientAddress: String) throws -> UserRecord? {
        let policy = server.policy
        let now = server.clock.now
        let throttle = server.storage.throttle
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let accountKey = counterKey("account", normalized)
        let addressKey = counterKey("address", clientAddress)
        if try throttle.hitCount(key: accountKey, windowSeconds: policy.signInAccountWindow, now: now) >= policy.signInAccountFailureLimit
            || throttle.hitCount(key: addressKey, windowSeconds: policy.signInAddressWindow, now: now) >= policy.signInAddressFailureLimit {
            server.audit("sign_in_throttled")
            return nil
        }
        guard let user = try users.authenticate(email: normalized, password: password) else {
            _ = try throttle.hit(key: accountKey, windowSeconds: policy.signInAccountWindow, now: now)
            _ = try throttle.hit(key: addressKey, windowSeconds: policy.signInAddressWindow, now: now)
            server.audit("sign_in_failed")
            return nil
        }
        try throttle.resetHits(key: accountKey)
        server.audit("sign_in", subject: user.id)
        return user
    }

    private func counterKey(_ kind: String, _ value: String) -> String {
        "signin:\(kind):" + Base64URL.encode(HMAC.sha256(key: keyKey, message: Array("signin/\(kind)/\(value)".utf8)))
    }
}
