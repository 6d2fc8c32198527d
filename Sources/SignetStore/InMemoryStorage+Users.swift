import Foundation

extension InMemoryStorage: UserStore {
    /// See `UserStore.insertUser(_:)`.
    public func insertUser(_ user: UserRecord) throws {
        var stored = user
        stored.email = user.email.lowercased()
        try state.withLock { s in
            guard s.users[stored.id] == nil, s.userIDsByEmail[stored.email] == nil else {
                throw StoreError.duplicate
            }
            s.users[stored.id] = stored
            s.userIDsByEmail[stored.email] = stored.id
        }
    }

    /// See `UserStore.user(id:)`.
    public func user(id: String) throws -> UserRecord? {
        state.withLock { $0.users[id] }
    }

    /// See `UserStore.user(email:)`.
    public func user(email: String) throws -> UserRecord? {
        state.withLock { s in s.userIDsByEmail[email.lowercased()].flatMap { s.users[$0] } }
    }

    /// See `UserStore.allUsers()`.
    public func allUsers() throws -> [UserRecord] {
        state.withLock { $0.users.values.sorted { $0.email < $1.email } }
    }

    /// See `UserStore.setPassword(userID:passwordHash:now:)`.
    public func setPassword(userID: String, passwordHash: String?, now: Date) throws {
        try updateUser(userID, now: now) { $0.passwordHash = passwordHash }
    }

    /// See `UserStore.setDisabled(userID:disabledAt:now:)`.
    public func setDisabled(userID: String, disabledAt: Date?, now: Date) throws {
        try updateUser(userID, now: now) { $0.disabledAt = disabledAt }
    }

    /// See `UserStore.updateProfile(userID:name:givenName:familyName:emailVerified:now:)`.
    public func updateProfile(userID: String, name: String?, givenName: String?, familyName: String?,
                              emailVerified: Bool, now: Date) throws {
        try updateUser(userID, now: now) { user in
            user.name = name
            user.givenName = givenName
            user.familyName = familyName
            user.emailVerified = emailVerified
        }
    }

    /// See `UserStore.insertFederatedIdentity(_:)`.
    public func insertFederatedIdentity(_ identity: FederatedIdentityRecord) throws {
        let key = FederatedKey(connectionID: identity.connectionID, issuer: identity.issuer, subject: identity.subject)
        try state.withLock { s in
            guard s.federated[key] == nil else { throw StoreError.duplicate }
            guard s.users[identity.userID] != nil else { throw StoreError.notFound }
            s.federated[key] = identity
        }
    }

    /// See `UserStore.insertUser(_:withFederatedIdentity:)`.
    public func insertUser(_ user: UserRecord, withFederatedIdentity identity: FederatedIdentityRecord) throws {
        guard identity.userID == user.id else { throw StoreError.notFound }
        var stored = user
        stored.email = user.email.lowercased()
        let key = FederatedKey(connectionID: identity.connectionID, issuer: identity.issuer, subject: identity.subject)
        try state.withLock { s in
            guard s.users[stored.id] == nil, s.userIDsByEmail[stored.email] == nil, s.federated[key] == nil else {
                throw StoreError.duplicate
            }
            s.users[stored.id] = stored
            s.userIDsByEmail[stored.email] = stored.id
            s.federated[key] = identity
        }
    }

    /// See `UserStore.federatedIdentity(connectionID:issuer:subject:)`.
    public func federatedIdentity(connectionID: String, issuer: String, subject: String) throws -> FederatedIdentityRecord? {
        let key = FederatedKey(connectionID: connectionID, issuer: issuer, subject: subject)
        return state.withLock { $0.federated[key] }
    }

    /// See `UserStore.federatedIdentities(userID:)`.
    public func federatedIdentities(userID: String) throws -> [FederatedIdentityRecord] {
        state.withLock { s in
            s.federated.values.filter { $0.userID == userID }
                .sorted { ($0.createdAt, $0.connectionID, $0.issuer, $0.subject)
                    < ($1.createdAt, $1.connectionID, $1.issuer, $1.subject) }
        }
    }

    private func updateUser(_ id: String, now: Date, _ change: (inout UserRecord) -> Void) throws {
        try state.withLock { s in
            guard var user = s.users[id] else { throw StoreError.notFound }
            change(&user)
            user.updatedAt = now
            s.users[id] = user
        }
    }

    /// See `UserStore.deleteFederatedIdentities(userID:connectionID:)`.
    public func deleteFederatedIdentities(userID: String, connectionID: String) throws -> Int {
        state.withLock { s in
            let keys = s.federated.filter { $0.value.userID == userID && $0.value.connectionID == connectionID }.map(\.key)
            for key in keys { s.federated.removeValue(forKey: key) }
            return keys.count
        }
    }

    /// See `UserStore.deleteUser(id:)`.
    public func deleteUser(id: String) throws -> Bool {
        state.withLock { s in
            guard let user = s.users.removeValue(forKey: id) else { return false }
            s.userIDsByEmail.removeValue(forKey: user.email)
            s.federated = s.federated.filter { $0.value.userID != id }
            s.sessions = s.sessions.filter { $0.value.userID != id }
            s.consents = s.consents.filter { $0.value.userID != id }
            s.codes = s.codes.filter { $0.value.userID != id }
            let grants = Set(s.grants.values.filter { $0.userID == id }.map(\.grantID))
            s.grants = s.grants.filter { !grants.contains($0.key) }
            s.refreshTokens = s.refreshTokens.filter { !grants.contains($0.value.grantID) }
            return true
        }
    }
}
