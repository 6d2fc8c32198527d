import Foundation
import SignetJOSE

/// A provider's JSON Web Key Set, fetched on first use and cached for as long as the provider's
/// `Cache-Control: max-age` says, within bounds.
///
/// Expiry: a fetched set is used for `max-age` seconds (RFC 9111 §5.2.2.1), clamped to
/// `lifetimeBounds` (default 60 s to 24 h; `no-store`, `no-cache` and `max-age=0` count as the
/// lower bound), or `defaultLifetime` (1 h) when the response says nothing. After that the next
/// lookup fetches the set again, so a key the provider removed stops verifying. If that fetch
/// fails, the expired keys stay in use and the fetch is retried `minimumRefetchInterval` later:
/// an unreachable provider does not stop verification.
///
/// Rotation: a token naming an unknown `kid` triggers a refetch, but at most one per
/// `minimumRefetchInterval` (so a stream of forged `kid`s cannot turn Signet into a request
/// amplifier against the provider); so does a token without `kid` whose signature the set's only
/// key does not verify. There is never a fallback key. Concurrent callers share one fetch in
/// flight. While no set could be fetched yet, every lookup fails with that fetch's error
/// (`.unavailable`, `.invalidKeySet`), never with `.unknownKeyID`: the token is not at fault.
public actor JWKSCache: VerificationKeySource {
    /// Where the set is published.
    public let jwksURI: URL
    /// The shortest time between two fetches caused by unknown key IDs.
    public let minimumRefetchInterval: TimeInterval
    /// The shortest and longest time a fetched set is used before it is fetched again.
    public let lifetimeBounds: ClosedRange<TimeInterval>
    /// How long a set is used when its response carries no `max-age`.
    public let defaultLifetime: TimeInterval
    private let http: OutboundHTTP
    private let clock: @Sendable () -> Date
    private var keysByID: [String: VerificationKey] = [:]
    private var lastFetch: Date?
    /// When the cached set must be fetched again; nil until a fetch succeeded.
    private var expiresAt: Date?
    /// Why the last fetch failed, while no set has been fetched yet.
    private var firstFetchFailure: KeySourceError?
    private var inFlight: Task<Result<FetchedKeySet, KeySourceError>, Never>?

    /// Creates an empty cache (nothing is fetched until the first lookup).
    public init(jwksURI: URL, http: OutboundHTTP, minimumRefetchInterval: TimeInterval = 60,
                lifetimeBounds: ClosedRange<TimeInterval> = 60...86_400, defaultLifetime: TimeInterval = 3600,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.jwksURI = jwksURI
        self.http = http
        self.minimumRefetchInterval = minimumRefetchInterval
        self.lifetimeBounds = lifetimeBounds
        self.defaultLifetime = defaultLifetime
        self.clock = clock
    }

    /// The key with key ID `kid`.
    ///
    /// - Throws: `KeySourceError.unknownKeyID` if the (possibly refetched) set lacks it;
    ///   `.unavailable`/`.invalidKeySet` while no set could be fetched yet.
    public func keys(for kid: String) async throws(KeySourceError) -> VerificationKey {
        await refreshIfExpired()
        if let key = keysByID[kid] { return key }
        guard refetchAllowed else {
            if let firstFetchFailure { throw firstFetchFailure }
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
        await refreshIfExpired()
        if (expiresAt == nil || refetch) && refetchAllowed { try await refresh() }
        if expiresAt == nil, let firstFetchFailure { throw firstFetchFailure }
        return keysByID.count == 1 ? keysByID.values.first : nil
    }

    /// Fetches the set now (joining a fetch already in flight).
    public func refresh() async throws(KeySourceError) {
        let task: Task<Result<FetchedKeySet, KeySourceError>, Never>
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
        case .success(let fetched):
            keysByID = fetched.keys
            expiresAt = clock().addingTimeInterval(lifetime(maxAge: fetched.maxAge))
            firstFetchFailure = nil
        case .failure(let error):
            if expiresAt == nil { firstFetchFailure = error }
            throw error
        }
    }

    /// The key IDs currently cached.
    public var cachedKeyIDs: [String] { keysByID.keys.sorted() }

    /// When the cached set will be fetched again (nil before the first successful fetch).
    public var cacheExpiry: Date? { expiresAt }

    private var refetchAllowed: Bool {
        lastFetch.map { clock().timeIntervalSince($0) >= minimumRefetchInterval } ?? true
    }

    /// Fetches an expired set; when that fails the old keys stay, and the next try waits.
    private func refreshIfExpired() async {
        guard let expiresAt, clock() >= expiresAt else { return }
        do {
            try await refresh()
        } catch {
            self.expiresAt = clock().addingTimeInterval(minimumRefetchInterval)
        }
    }

    /// `max-age` clamped to the bounds; the default when absent.
    func lifetime(maxAge: TimeInterval?) -> TimeInterval {
        min(max(maxAge ?? defaultLifetime, lifetimeBounds.lowerBound), lifetimeBounds.upperBound)
    }

    /// RFC 9111 §5.2.2: `max-age=N` (the first), with `no-store` and `no-cache` meaning 0; nil
    /// when the header says nothing about freshness.
    static func maxAge(cacheControl: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        var result: TimeInterval?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "no-store", "no-cache": return 0
            case "max-age" where result == nil && parts.count == 2:
                let digits = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                    result = TimeInterval(Int(digits.prefix(10)) ?? Int.max)
                }
            default: continue
            }
        }
        return result
    }

    private static func fetch(_ url: URL, http: OutboundHTTP) async -> Result<FetchedKeySet, KeySourceError> {
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
            return .success(FetchedKeySet(keys: byID, maxAge: maxAge(cacheControl: response.headers["cache-control"])))
        } catch {
            return .failure(.invalidKeySet(error))
        }
    }
}

/// One fetched set and the freshness its response declared.
struct FetchedKeySet: Sendable {
    let keys: [String: VerificationKey]
    let maxAge: TimeInterval?
}
