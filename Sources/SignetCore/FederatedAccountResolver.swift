import Foundation
import SignetCrypto
import SignetStore

/// Finds or makes the local account for an upstream identity.
///
/// Identities are keyed by (connection, issuer, subject), never by email. A known identity signs
/// in as its user. A new one either links to the existing account with the same email (only when
/// the provider says the email is verified AND the connection allows linking) or, when no account
/// has that email and the provider says it is verified, provisions a passwordless user. When the
/// email belongs to an account that may not be linked automatically, the user must prove that
/// account first (`linkRequired`; then `link(_:toUser:)`): nothing is linked or created before.
public struct FederatedAccountResolver: Sendable {
    /// What the provider asserted, after every upstream check.
    public struct Claims: Sendable, Equatable {
        /// The configured connection.
        public var connectionID: String
        /// The provider's issuer.
        public var issuer: String
        /// The provider's subject.
        public var subject: String
        /// The provider's email, if any.
        public var email: String?
        /// Whether the provider says the email is verified (in its documented form).
        public var emailVerified: Bool
        /// Full name.
        public var name: String?
        /// Given name.
        public var givenName: String?
        /// Family name.
        public var familyName: String?

        /// Creates the value.
        public init(connectionID: String, issuer: String, subject: String, email: String?, emailVerified: Bool,
                    name: String? = nil, givenName: String? = nil, familyName: String? = nil) {
            self.connectionID = connectionID
            self.issuer = issuer
            self.subject = subject
            self.email = email
            self.emailVerified = emailVerified
            self.name = name
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    /// The result of resolving an identity.
    public enum Outcome: Sendable, Equatable {
        /// The identity was already linked to this user.
        case existing(UserRecord)
        /// The identity was just linked to this existing user (verified email, linking allowed).
        case linked(UserRecord)
        /// A new passwordless user was created and linked.
        case created(UserRecord)
        /// The email belongs to this existing account, which may not be linked automatically: the
        /// user proves it (its password) before `link(_:toUser:)`.
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

    /// Resolves `claims` under the connection's linking rule.
    public func resolve(_ claims: Claims, allowLinking: Bool) throws -> Outcome {
        try resolve(claims, allowLinking: allowLinking, retry: true)
    }

    private func resolve(_ claims: Claims, allowLinking: Bool, retry: Bool) throws -> Outcome {
        let now = clock.now
        if let link = try users.federatedIdentity(connectionID: claims.connectionID, issuer: claims.issuer, subject: claims.subject) {
            guard var user = try users.user(id: link.userID) else { throw StoreError.corrupt("federated identity without user") }
            guard user.disabledAt == nil else { return .disabled }
            // Apple sends the name only on first consent: keep it when the account has none.
            if user.name == nil, claims.name != nil {
                try users.updateProfile(userID: user.id, name: claims.name, givenName: claims.givenName, familyName: claims.familyName,
                                        emailVerified: user.emailVerified, now: now)
                user.name = claims.name
                user.givenName = claims.givenName
                user.familyName = claims.familyName
            }
            auditor.record("federated_sign_in", actor: "user:\(user.id)", subject: user.id, method: "fed:\(claims.connectionID)",
                           detail: ["connection": .string(claims.connectionID)])
            return .existing(user)
        }
        guard let raw = claims.email, let email = try? UserService.normalizeEmail(raw) else { return .emailMissing }
        let identity = FederatedIdentityRecord(connectionID: claims.connectionID, issuer: claims.issuer, subject: claims.subject,
                                               userID: "", email: email, createdAt: now)
        if let existing = try users.user(email: email) {
            guard allowLinking, claims.emailVerified else { return .linkRequired(existingUserID: existing.id) }
            guard existing.disabledAt == nil else { return .disabled }
            var link = identity
            link.userID = existing.id
            do { try users.insertFederatedIdentity(link) } catch StoreError.duplicate {
                if retry { return try resolve(claims, allowLinking: allowLinking, retry: false) }
                throw StoreError.duplicate
            }
            auditor.record("federated_identity_linked", actor: "user:\(existing.id)", subject: existing.id, method: "fed:\(claims.connectionID)",
                           reason: "verified_email", detail: ["connection": .string(claims.connectionID)])
            return .linked(existing)
        }
        guard claims.emailVerified else { return .emailNotVerified }
        let user = UserRecord(id: random.identifier(), email: email, emailVerified: claims.emailVerified,
                              passwordHash: nil, name: claims.name, givenName: claims.givenName, familyName: claims.familyName,
                              createdAt: now, updatedAt: now)
        var link = identity
        link.userID = user.id
        // The user and its identity in one transaction: a concurrent first sign-in of the same
        // identity (or the same email) makes this one store nothing, never an orphan user.
        do { try users.insertUser(user, withFederatedIdentity: link) } catch StoreError.duplicate {
            // Another sign-in created this identity or email meanwhile: resolve again against it.
            if retry { return try resolve(claims, allowLinking: allowLinking, retry: false) }
            throw StoreError.duplicate
        }
        auditor.record("federated_user_created", actor: "user:\(user.id)", subject: user.id, method: "fed:\(claims.connectionID)",
                       detail: ["connection": .string(claims.connectionID)])
        return .created(user)
    }

    /// Links the identity to `userID` after the user proved that account (its password), for a
    /// `linkRequired` outcome. Returns `.linked`, or `.existing` when the identity is already
    /// linked to that user (a second tab finishing the same proof); nil when the identity now
    /// belongs to another user or the user is gone or disabled (nothing changes).
    public func link(_ claims: Claims, toUser userID: String) throws -> Outcome? {
        guard let user = try users.user(id: userID), user.disabledAt == nil else { return nil }
        if let link = try users.federatedIdentity(connectionID: claims.connectionID, issuer: claims.issuer, subject: claims.subject) {
            return link.userID == userID ? .existing(user) : nil
        }
        let email = claims.email.flatMap { try? UserService.normalizeEmail($0) } ?? user.email
        let record = FederatedIdentityRecord(connectionID: claims.connectionID, issuer: claims.issuer, subject: claims.subject,
                                             userID: userID, email: email, createdAt: clock.now)
        do { try users.insertFederatedIdentity(record) } catch StoreError.duplicate {
            let raced = try users.federatedIdentity(connectionID: claims.connectionID, issuer: claims.issuer, subject: claims.subject)
            return raced?.userID == userID ? .existing(user) : nil
        }
        auditor.record("federated_identity_linked", actor: "user:\(userID)", subject: userID, method: "fed:\(claims.connectionID)",
                       reason: "password_proof", detail: ["connection": .string(claims.connectionID), "proof": .string("password")])
        return .linked(user)
    }
}

extension FederatedAccountResolver {
    /// Creates the resolver.
    public init(server: AuthorizationServer) {
        self.init(users: server.storage.users, auditor: server.auditor, clock: server.clock, random: server.random)
    }
}
