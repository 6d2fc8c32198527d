import Foundation
import SignetCrypto
import SignetStore
import SignetWire

/// Finds or makes the local account for an upstream identity.
///
/// Identities are keyed by (connection, issuer, subject), never by email. A known identity signs
/// in as its user. A new one either links to the existing account with the same email (only when
/// the provider says the email is verified AND the connection allows linking) or, when no account
/// has that email and the provider says it is verified, provisions a passwordless user. When the
/// email belongs to an account that may not be linked automatically, the user must prove that
/// account first (`linkRequired`; then `link(_:connectionID:toUser:)`): nothing is linked or created before.
public struct FederatedAccountResolver: Sendable {
    /// The result of resolving an identity.
    public enum Outcome: Sendable, Equatable {
        /// The identity was already linked to this user.
        case existing(UserRecord)
        /// The identity was just linked to this existing user (verified email, linking allowed).
        case linked(UserRecord)
        /// A new passwordless user was created and linked.
        case created(UserRecord)
        /// The email belongs to this existing account, which may not be linked automatically: the
        /// user proves it (its password) before `link(_:connectionID:toUser:)`.
        case linkRequired(existingUserID: String)
        /// The linked user is disabled.
        case disabled
        /// The provider gave no usable email, so no account can be provisioned.
        case emailMissing
        /// The provider does not vouch for the email, so no account is provisioned with it.
        case emailNotVerified

        /// The user to sign in as, if any.
        public var user: UserRecord? {
            switch self {
            case .existing(let user), .linked(let user), .created(let user): user
            default: nil
            }
        }
    }

    let users: any UserStore
    let auditor: Auditor
    let clock: any Clock
    /// New users' ids.
    let random: any RandomSource
    /// The pre-account-takeover rule for an unconfirmed account linked by a provider's verified email.
    let claims: UnconfirmedAccountClaim

    /// What `resolve` would answer, without writing anything: the user a found, linked or made
    /// account would be (a new one not stored, with no id), for the sign-in gate to decide on
    /// before anything is created or linked.
    public func peek(_ upstream: UpstreamIdentity, connectionID: String, allowLinking: Bool) throws -> Outcome {
        if let link = try users.federatedIdentity(connectionID: connectionID, issuer: upstream.issuer, subject: upstream.subject) {
            guard let user = try users.user(id: link.userID) else { throw StoreError.corrupt("federated identity without user") }
            return user.disabledAt == nil ? .existing(user) : .disabled
        }
        guard let raw = upstream.email, let email = try? UserService.normalizeEmail(raw) else { return .emailMissing }
        if let existing = try users.user(email: email) {
            guard allowLinking, upstream.emailVerified else { return .linkRequired(existingUserID: existing.id) }
            return existing.disabledAt == nil ? .linked(existing) : .disabled
        }
        guard upstream.emailVerified else { return .emailNotVerified }
        let now = clock.now
        return .created(UserRecord(id: "", email: email, emailVerified: true, passwordHash: nil, name: upstream.name,
                                   givenName: upstream.givenName, familyName: upstream.familyName, createdAt: now, updatedAt: now))
    }

    /// Resolves `upstream`, who signed in through connection `connectionID` (after every upstream
    /// check), under the connection's linking rule.
    public func resolve(_ upstream: UpstreamIdentity, connectionID: String, allowLinking: Bool) throws -> Outcome {
        try resolve(upstream, connectionID: connectionID, allowLinking: allowLinking, retry: true)
    }

    private func resolve(_ upstream: UpstreamIdentity, connectionID: String, allowLinking: Bool, retry: Bool) throws -> Outcome {
        let now = clock.now
        if let link = try users.federatedIdentity(connectionID: connectionID, issuer: upstream.issuer, subject: upstream.subject) {
            guard var user = try users.user(id: link.userID) else { throw StoreError.corrupt("federated identity without user") }
            guard user.disabledAt == nil else { return .disabled }
            // Apple sends the name only on first consent: keep it when the account has none.
            if user.name == nil, upstream.name != nil {
                try users.updateProfile(userID: user.id, name: upstream.name, givenName: upstream.givenName, familyName: upstream.familyName,
                                        emailVerified: user.emailVerified, now: now)
                user.name = upstream.name
                user.givenName = upstream.givenName
                user.familyName = upstream.familyName
            }
            auditor.record("federated_sign_in", actor: "user:\(user.id)", subject: user.id, method: "fed:\(connectionID)",
                           detail: ["connection": .string(connectionID)])
            return .existing(user)
        }
        guard let raw = upstream.email, let email = try? UserService.normalizeEmail(raw) else { return .emailMissing }
        let identity = FederatedIdentityRecord(connectionID: connectionID, issuer: upstream.issuer, subject: upstream.subject,
                                               userID: "", email: email, createdAt: now)
        if var existing = try users.user(email: email) {
            guard allowLinking, upstream.emailVerified else { return .linkRequired(existingUserID: existing.id) }
            guard existing.disabledAt == nil else { return .disabled }
            // The provider proved the address of an account nobody had confirmed: what was made on
            // it before goes first (pre-account takeover).
            existing = try claims.claim(existing, proof: "fed:\(connectionID)")
            var link = identity
            link.userID = existing.id
            do { try users.insertFederatedIdentity(link) } catch StoreError.duplicate {
                if retry { return try resolve(upstream, connectionID: connectionID, allowLinking: allowLinking, retry: false) }
                throw StoreError.duplicate
            }
            auditor.record("federated_identity_linked", actor: "user:\(existing.id)", subject: existing.id, method: "fed:\(connectionID)",
                           reason: "verified_email", detail: ["connection": .string(connectionID)])
            return .linked(existing)
        }
        guard upstream.emailVerified else { return .emailNotVerified }
        let user = UserRecord(id: random.identifier(), email: email, emailVerified: upstream.emailVerified,
                              passwordHash: nil, name: upstream.name, givenName: upstream.givenName, familyName: upstream.familyName,
                              createdAt: now, updatedAt: now)
        var link = identity
        link.userID = user.id
        // The user and its identity in one transaction: a concurrent first sign-in of the same
        // identity (or the same email) makes this one store nothing, never an orphan user.
        do { try users.insertUser(user, withFederatedIdentity: link) } catch StoreError.duplicate {
            // Another sign-in created this identity or email meanwhile: resolve again against it.
            if retry { return try resolve(upstream, connectionID: connectionID, allowLinking: allowLinking, retry: false) }
            throw StoreError.duplicate
        }
        auditor.record("federated_user_created", actor: "user:\(user.id)", subject: user.id, method: "fed:\(connectionID)",
                       detail: ["connection": .string(connectionID)])
        return .created(user)
    }

    /// Links the identity to `userID` after the user proved that account (its password), for a
    /// `linkRequired` outcome. Returns `.linked`, or `.existing` when the identity is already
    /// linked to that user (a second tab finishing the same proof); nil when the identity now
    /// belongs to another user or the user is gone or disabled (nothing changes).
    public func link(_ upstream: UpstreamIdentity, connectionID: String, toUser userID: String) throws -> Outcome? {
        guard let user = try users.user(id: userID), user.disabledAt == nil else { return nil }
        if let link = try users.federatedIdentity(connectionID: connectionID, issuer: upstream.issuer, subject: upstream.subject) {
            return link.userID == userID ? .existing(user) : nil
        }
        let email = upstream.email.flatMap { try? UserService.normalizeEmail($0) } ?? user.email
        let record = FederatedIdentityRecord(connectionID: connectionID, issuer: upstream.issuer, subject: upstream.subject,
                                             userID: userID, email: email, createdAt: clock.now)
        do { try users.insertFederatedIdentity(record) } catch StoreError.duplicate {
            let raced = try users.federatedIdentity(connectionID: connectionID, issuer: upstream.issuer, subject: upstream.subject)
            return raced?.userID == userID ? .existing(user) : nil
        }
        auditor.record("federated_identity_linked", actor: "user:\(userID)", subject: userID, method: "fed:\(connectionID)",
                       reason: "password_proof", detail: ["connection": .string(connectionID), "proof": .string("password")])
        return .linked(user)
    }
}

extension FederatedAccountResolver {
    /// Creates the resolver.
    public init(server: AuthorizationServer) {
        self.init(users: server.storage.users, auditor: server.auditor, clock: server.clock, random: server.random,
                  claims: UnconfirmedAccountClaim(server: server))
    }
}
