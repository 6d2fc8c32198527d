import Foundation

/// Remembered consent, per user and client.
public protocol ConsentStore: Sendable {
    /// The consent of the user for the client, or nil.
    func consent(userID: String, clientID: String) throws -> ConsentRecord?

    /// Stores the consent, replacing any earlier consent of the same user for the same client.
    func putConsent(_ consent: ConsentRecord) throws

    /// Forgets the consent; returns false if there was none.
    @discardableResult
    func revokeConsent(userID: String, clientID: String) throws -> Bool

    /// Every consent of a user, ordered by client id.
    func consents(userID: String) throws -> [ConsentRecord]
}
