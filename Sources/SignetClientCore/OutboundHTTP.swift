import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif


/// The HTTP client for every call Signet (or the SDK) makes to an upstream provider.
///
/// Never follows a redirect (reported as `OutboundError.redirected`), has a time limit for the
/// whole exchange and a response size limit enforced while the body streams in (a response that
/// crosses it is abandoned, never buffered whole), sends and keeps no cookies, caches nothing.
/// Any other status is returned for the caller to judge (token endpoints answer errors with 400
/// and a JSON body).
///
/// On Linux the exchange runs in `OutboundTransport` (HTTP/1.1 over a socket or OpenSSL TLS with
/// the system trust store and host-name checks, one connection per call, waiting in `poll`):
/// FoundationNetworking's URLSession keeps a core busy while a fresh connection waits for its
/// first response, which a slow provider turns into CPU taken from everyone else. Elsewhere it
/// is an ephemeral `URLSession` whose session-level delegate refuses redirects.
public final class OutboundHTTP: Sendable {
    /// The longest a call may take, in seconds (connect, send and receive).
    public let timeLimit: TimeInterval
    /// The largest accepted response body, in bytes.
    public let sizeLimit: Int
    /// Sent as `User-Agent`.
    public let userAgent: String
    /// PEM certificates to trust instead of the system's (a private CA, or tests); Linux only.
    public let trustedCertificatesFile: String?
    /// Public-key pins (RFC 7469 `pin-sha256`: SHA-256 of a certificate's SubjectPublicKeyInfo, 32
    /// bytes each): when not empty, an https call succeeds only if a certificate of the verified
    /// chain has one of these keys, on top of the usual verification. Linux only (elsewhere a
    /// non-empty list stops the program rather than run unpinned).
    public let pinnedKeyHashes: [[UInt8]]
    #if !os(Linux)
    private let session: URLSession
    private let delegate: OutboundDelegate
    #endif

    /// Creates a client. Defaults: 10 s, 1 MiB, 128 connections per host.
    ///
    /// `maximumConnectionsPerHost` applies to URLSession (not Linux, where every call has its own
    /// connection): its default is 6, so a provider answering in 3 s would let only 6 sign-ins
    /// talk to it at once while the rest queue inside the session, their time limit running.
    public init(timeLimit: TimeInterval = 10, sizeLimit: Int = 1024 * 1024, userAgent: String = "Signet",
                maximumConnectionsPerHost: Int = 128, trustedCertificatesFile: String? = nil, pinnedKeyHashes: [[UInt8]] = []) {
        self.timeLimit = timeLimit
        self.sizeLimit = sizeLimit
        self.userAgent = userAgent
        self.trustedCertificatesFile = trustedCertificatesFile
        // Fail closed: a malformed pin is a programming error, never a silently unpinned client.
        precondition(pinnedKeyHashes.allSatisfy { $0.count == 32 }, "a pin is the 32-byte SHA-256 of a SubjectPublicKeyInfo")
        self.pinnedKeyHashes = pinnedKeyHashes
        #if !os(Linux)
        precondition(pinnedKeyHashes.isEmpty, "public-key pinning is implemented for the Linux transport only")
        let configuration = Self.statelessSessionConfiguration(timeLimit: timeLimit)
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        let delegate = OutboundDelegate(sizeLimit: sizeLimit)
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        #endif
    }

    /// URLSession settings that keep no state: ephemeral, no cookie sent or kept, nothing cached,
    /// `timeLimit` seconds for the request and for the whole resource. Also the test client's.
    public static func statelessSessionConfiguration(timeLimit: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeLimit
        configuration.timeoutIntervalForResource = timeLimit
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    #if !os(Linux)
    deinit { session.finishTasksAndInvalidate() }
    #endif

    /// `GET url` with extra headers.
    public func get(_ url: URL, headers: [String: String] = [:]) async throws(OutboundError) -> OutboundResponse {
        try await send(method: "GET", url: url, body: nil, headers: headers)
    }

    /// `POST url` with an `application/x-www-form-urlencoded` body (strictly encoded, in order).
    public func postForm(_ url: URL, _ pairs: [(String, String)], headers: [String: String] = [:]) async throws(OutboundError) -> OutboundResponse {
        var headers = headers
        if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        }
        return try await send(method: "POST", url: url, body: Array(FormEncoding.encode(pairs).utf8), headers: headers)
    }

    /// Any request.
    public func send(method: String, url: URL, body: [UInt8]?, headers: [String: String]) async throws(OutboundError) -> OutboundResponse {
        #if os(Linux)
        return try await OutboundTransport.exchange(method: method, url: url, body: body, headers: headers, userAgent: userAgent,
                                                    timeLimit: timeLimit, sizeLimit: sizeLimit,
                                                    trustedCertificatesFile: trustedCertificatesFile, pinnedKeyHashes: pinnedKeyHashes)
        #else
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeLimit)
        request.httpMethod = method
        request.httpShouldHandleCookies = false
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let result: Result<OutboundResponse, OutboundError> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request)
            delegate.register(task.taskIdentifier) { continuation.resume(returning: $0) }
            task.resume()
        }
        return try result.get()
        #endif
    }
}
