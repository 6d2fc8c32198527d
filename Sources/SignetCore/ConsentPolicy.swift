import Foundation
import SignetStore
import SignetWire

/// When the consent page is shown, and what is remembered afterwards.
public struct ConsentPolicy: Sendable {
    let consents: any ConsentStore
    let clock: any Clock

    /// Whether the user must be asked before `client` gets `request.scope`:
    /// - `prompt=consent` always asks (OpenID Connect Core §3.1.2.1);
    /// - first-party clients are never asked otherwise;
    /// - clients that must always ask (RFC 8252 §8.6: not first-party, private-use scheme) are
    ///   asked every time;
    /// - other clients are asked unless a remembered consent covers every requested scope.
    public func isRequired(client: Client, userID: String, request: AuthorizationRequest) throws -> Bool {
        if request.prompts(.consent) { return true }
        if client.isFirstParty { return false }
        if client.mustAlwaysAskConsent { return true }
        guard let remembered = try consents.consent(userID: userID, clientID: client.id) else { return true }
        return !request.parsedScope.isSubset(of: Scope(remembered.scopes))
    }

    /// Remembers that the user allowed `scope` for `client` (added to what was allowed before).
    /// Nothing is remembered for first-party clients (never asked) or for clients that must
    /// always ask (RFC 8252 §8.6).
    public func remember(client: Client, userID: String, scope: Scope) throws {
        guard !client.isFirstParty, !client.mustAlwaysAskConsent else { return }
        var scopes = try consents.consent(userID: userID, clientID: client.id)?.scopes ?? []
        for token in scope.tokens where !scopes.contains(token) { scopes.append(token) }
        try consents.putConsent(ConsentRecord(userID: userID, clientID: client.id, scopes: scopes,
                                                             grantedAt: clock.now))
    }
}

extension ConsentPolicy {
    /// Creates the policy.
    public init(server: AuthorizationServer) { self.init(consents: server.storage.consents, clock: server.clock) }
}
