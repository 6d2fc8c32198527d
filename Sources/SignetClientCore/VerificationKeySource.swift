import SignetJOSE

/// Where an `IDTokenValidator` gets the key named by a token's `kid`.
public protocol VerificationKeySource: Sendable {
    /// The key with key ID `kid`, pinned to its algorithm. Never a fallback key.
    ///
    /// - Throws: `KeySourceError`.
    func keys(for kid: String) async throws(KeySourceError) -> VerificationKey
}

/// A fixed set of keys (tests, or keys configured by hand).
public struct StaticKeySource: VerificationKeySource {
    private let byID: [String: VerificationKey]

    /// A source over `keys`; a later key with an earlier key's ID replaces it.
    public init(_ keys: [VerificationKey]) {
        var byID: [String: VerificationKey] = [:]
        for key in keys { byID[key.keyID] = key }
        self.byID = byID
    }

    /// The key with key ID `kid`.
    public func keys(for kid: String) async throws(KeySourceError) -> VerificationKey {
        guard let key = byID[kid] else { throw .unknownKeyID }
        return key
    }
}
