import SignetJOSE

/// Where an `IDTokenValidator` gets the key named by a token's `kid`.
public protocol VerificationKeySource: Sendable {
    /// The key with key ID `kid`, pinned to its algorithm. Never a fallback key.
    ///
    /// - Throws: `KeySourceError`.
    func keys(for kid: String) async throws(KeySourceError) -> VerificationKey

    /// The set's only key, for a token whose header names none (OpenID Connect Core §10.1 lets a
    /// provider whose JWK Set holds a single key leave `kid` out). Nil when the set holds several
    /// keys (a token must then name one) or none.
    ///
    /// - Parameter refetch: fetch the set again first, as far as the source's refetch limit allows
    ///   (the cached key failed to verify: the provider may have replaced it).
    /// - Throws: `KeySourceError` when the set cannot be fetched.
    func soleKey(refetch: Bool) async throws(KeySourceError) -> VerificationKey?
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

    /// The only key, or nil when there are several (or none).
    public func soleKey(refetch: Bool) async throws(KeySourceError) -> VerificationKey? {
        byID.count == 1 ? byID.values.first : nil
    }
}
