import Foundation

/// The mutable state of a `MockProvider`, guarded by its mutex.
struct MockProviderState: Sendable {
    struct PendingCode: Sendable {
        let clientID: String
        let redirectURI: String
        let codeChallenge: String?
        let nonce: String?
        let scope: String
    }

    var user: MockUser
    var redirectURIs: [String]
    var keys: MockProviderKeys
    var behaviour = MockProviderBehaviour()
    var codes: [String: PendingCode] = [:]
    var accessTokens: Set<String> = []
    /// Refresh tokens handed out (Apple flavor), for `/auth/revoke`.
    var refreshTokens: Set<String> = []
    var revocations: [MockRevocation] = []
    var requestCounts: [String: Int] = [:]
    var inFlight: [String: Int] = [:]
    var held: [CheckedContinuation<Void, Never>] = []
    var lastAuthorizationNonce: String?

    init(user: MockUser, redirectURIs: [String], generation: Int) throws {
        self.user = user
        self.redirectURIs = redirectURIs
        self.keys = try MockProviderKeys(generation: generation)
    }
}
