import Foundation
import SignetCrypto
import SignetStore

/// Finds or provisions the local account for an upstream identity: ONE place for the rules, used
/// by browser federation (SignetFederation's callback) and native ID-token sign-in alike.
///
/// 1. An identity already linked — keyed on (connection, issuer, subject), never on email, which
///    can change and may be unverified — signs in as its user.
/// 2. Otherwise, if a local account has the same email, the identity is linked to it ONLY when
///    the provider says the email is verified AND the connection allows linking
///    (`allow_linking`); otherwise `emailInUse` (linking on an unverified email would let anyone
///    who can claim an address at a sloppy provider take over the account).
/// 3. Otherwise a new passwordless user is created (email verified as the provider says) and the
///    identity linked to it.
public struct FederatedAccountResolver: Sendable {
    /// How an identity was resolved.
    public enum Outcome: String, Sendable, Equatable {
        /// The identity was already linked.
        case existingIdentity
        /// The identity was linked to an existing account by verified email.
        case linkedByEmail
        /// A new account was created.
        case created
    }

    /// The result: the user and how it was found.
    public struct Resolution: Sendable, Equatable {
        /// The local user.
        public let user: UserRecord
        /// How it was resolved.
        public let outcome: Outcome
    }

    let storage: any SignetStorage
    let clock: any Clock
    let random: any RandomSource

    /// Creates a resolver over the server's storage, clock and random source.
    public init(server: AuthorizationServer) {
        self.init(storage: server.storage, clock: server.clock, random: server.random)
    }

    /// Creates a resolver.
    public init(storage: any SignetStorage, clock: any Clock, random: any RandomSource) {
        self.storage = storage
        self.clock = clock
        self.random = random
    }

    /// Resolves `identity`. `allowLinking` is the connection's `allow_linking`.
    ///
    /// - Throws: `FederatedAccountError`, or a store error.
    public func resolve(_ identity: UpstreamIdentity, allowLinking: Bool) throws -> Resolution {
        if let existing = try linkedUser(identity) { return existing }
        guard let rawEmail = identity.email, let email = try? UserService.normalizeEmail(rawEmail) else {
            throw FederatedAccountError.emailRequired
        }
        let now = clock.now
        if let user = try storage.users.user(email: email) {
            guard allowLinking, identity.emailVerified else { throw FederatedAccountError.emailInUse }
            guard user.disabledAt == nil else { throw FederatedAccountError.userDisabled }
            do {
                try storage.users.insertFederatedIdentity(record(identity, userID: user.id, email: email, now: now))
            } catch StoreError.duplicate {
                // A concurrent sign-in of the same identity linked it first.
                if let existing = try linkedUser(identity) { return existing }
                throw StoreError.duplicate
            }
            return Resolution(user: user, outcome: .linkedByEmail)
        }
        let name = identity.name?.trimmingCharacters(in: .whitespacesAndNewlines)
        let user = UserRecord(id: Base64URL.encode(random.bytes(16)), email: email, emailVerified: identity.emailVerified,
                              passwordHash: nil, name: name?.isEmpty == false ? name : nil, createdAt: now, updatedAt: now)
        do {
            try storage.users.insertUser(user)
        } catch StoreError.duplicate {
            // Another request created an account with this email meanwhile: resolve again once.
            if let existing = try linkedUser(identity) { return existing }
            throw FederatedAccountError.emailInUse
        }
        do {
            try storage.users.insertFederatedIdentity(record(identity, userID: user.id, email: email, now: now))
        } catch StoreError.duplicate {
            if let existing = try linkedUser(identity) { return existing }
            throw StoreError.duplicate
        }
        return Resolution(user: user, outcome: .created)
    }

    private func linkedUser(_ identity: UpstreamIdentity) throws -> Resolution? {
        guard let link = try storage.users.federatedIdentity(connectionID: identity.connectionID, issuer: identity.issuer,
                                                             subject: identity.subject),
              let user = try storage.users.user(id: link.userID) else { return nil }
        guard user.disabledAt == nil else { throw FederatedAccountError.userDisabled }
        return Resolution(user: user, outcome: .existingIdentity)
    }

    private func record(_ identity: UpstreamIdentity, userID: String, email: String, now: Date) -> FederatedIdentityRecord {
        FederatedIdentityRecord(connectionID: identity.connectionID, issuer: identity.issuer, subject: identity.subject,
                                userID: userID, email: email, createdAt: now)
    }
}
