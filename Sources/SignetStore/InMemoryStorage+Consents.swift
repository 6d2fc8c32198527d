import Foundation

extension InMemoryStorage: ConsentStore {
    /// See `ConsentStore.consent(userID:clientID:)`.
    public func consent(userID: String, clientID: String) throws -> ConsentRecord? {
        state.withLock { $0.consents[ConsentKey(userID: userID, clientID: clientID)] }
    }

    /// See `ConsentStore.putConsent(_:)`.
    public func putConsent(_ consent: ConsentRecord) throws {
        state.withLock { $0.consents[ConsentKey(userID: consent.userID, clientID: consent.clientID)] = consent }
    }

    /// See `ConsentStore.revokeConsent(userID:clientID:)`.
    public func revokeConsent(userID: String, clientID: String) throws -> Bool {
        state.withLock { $0.consents.removeValue(forKey: ConsentKey(userID: userID, clientID: clientID)) != nil }
    }

    /// See `ConsentStore.consents(userID:)`.
    public func consents(userID: String) throws -> [ConsentRecord] {
        state.withLock { s in s.consents.values.filter { $0.userID == userID }.sorted { $0.clientID < $1.clientID } }
    }
}
