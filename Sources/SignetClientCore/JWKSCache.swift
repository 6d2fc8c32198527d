import Foundation
import SignetJOSE

/// A provider's JSON Web Key Set, fetched on first use and cached.
///
/// Rotation: a token naming an unknown `kid` triggers a refetch, but at most one per
/// `minimumRefetchInterval` (so a stream of forged `kid`s cannot turn Signet into a request
/// amplifier against the provider); so does a token without `kid` whose signature the set's only
/// key does not verify. There is never a fallback key. Concurrent callers share one
/// fetch in flight. A failed fetch keeps the previously cached keys.
public actor JWKSCache: VerificationKeySource {
    /// Where the set is published.
    public let jwksURI: URL
    /// The shortest time between two fetches caused by unknown key IDs.
    public let minimumRefetchInterval: TimeInterval
    private let http: OutboundHTTP
    private let clock: @Sendable () -> Date
    private var keysByID: [String: VerificationKey] = [:]
    private var lastFetch: Date?
    private var inFlight: Task<Result<[String: VerificationKey], KeySourceError>, Never>?

    /// Creates an empty cache (nothing is fetched until the first lookup).
    public init(jwksURI: URL, http: OutboundHTTP, minimumRefetchInterval: TimeInterval = 60,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.jwksURI = jwksURI
        self.http = http
        self.minimumRefetchInterval = minimumRefetchInterval
        self.clock = clock
    }

    /// The key with key ID `kid`.
    ///
    /// - Throws: `KeySourceError.unknownKeyID` if the (possibly refetched) set lacks it;
    ///   `.unavailable`/`.invalidKeySet` if the first fetch fails.
    public func keys(for kid: String) async throws(KeySourceError) -> VerificationKey {
        if let key = keysByID[kid] { return key }
        let now = clock()
        if let lastFetch, now.timeIntervalSince(lastFetch) < minimumRefetchInterval {
            throw .unknownKeyID
        }
        try await refresh()
        guard let key = keysByID[kid] else { throw .unknownKeyID }
        return key
    }

    /// The set's only key, for a token without `kid` (fetched on first use). With `refetch` (the
    /// cached key failed to verify) the set is fetched again, but not sooner than
    /// `minimumRefetchInterval` after the last fetch. Nil when the set holds several keys or none.
    public func soleKey(refetch: Bool) async throws(KeySourceError) -> VerificationKey? {
        let due = lastFetch.map { clock().timeIntervalSince($0) >= minimumRefetchInterval } ?? true
        if lastFetch == nil || (refetch && due) { try await refresh() }
        return keysByID.count == 1 ? keysByID.values.first : nil
    }

    /// Fetches the set now (joining a fetch already in flight).
    public func refresh() async throws(KeySourceError) {
        let task: Task<Result<[String: VerificationKey], KeySourceError>, Never>
        if let inFlight {
            task = inFlight
        } else {
            let http = self.http
            let url = jwksURI
            task = Task { await Self.fetch(url, http: http) }
            inFlight = task
            lastFetch = clock()
        }
        let result = await task.value
        if inFlight == task { inFlight = nil }
        switch result {
        case .success(let keys): keysByID = keys
        case .failure(let error): throw error
        }
    }

    /// The key IDs currently cached.
    public var cachedKeyIDs: [String] { keysByID.keys.sorted() }

    private static func fetch(_ url: URL, http: OutboundHTTP) async -> Result<[String: VerificationKey], KeySourceError> {
        let response: OutboundResponse
        do {
            response = try await http.get(url, headers: ["Accept": "application/json"]).requireSuccess()
        } catch {
            return .failure(.unavailable(error))
        }
        do {
            let set = try JWKSet(jsonBytes: response.body)
            var byID: [String: VerificationKey] = [:]
            for key in try set.verificationKeys() { byID[key.keyID] = key }
            return .success(byID)
        } catch {
            return .failure(.invalidKeySet(error))
        }
    }
}
