import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif


/// The HTTP client for every call Signet (or the SDK) makes to an upstream provider.
///
/// An ephemeral `URLSession` (no cookies, no cache) whose SESSION-level delegate refuses every
/// redirect (TOOLCHAIN-NOTES §7: on Linux per-task delegates are ignored), with a time limit for
/// the whole exchange and a response size limit enforced while the body streams in: a response
/// that crosses the limit is cancelled, never buffered whole. Redirects are reported as
/// `OutboundError.redirected`; any other status is returned for the caller to judge (token
/// endpoints answer errors with 400 and a JSON body).
public final class OutboundHTTP: Sendable {
    /// The longest a call may take, in seconds (connect, send and receive).
    public let timeLimit: TimeInterval
    /// The largest accepted response body, in bytes.
    public let sizeLimit: Int
    /// Sent as `User-Agent`.
    public let userAgent: String
    private let session: URLSession
    private let delegate: OutboundDelegate

    /// Creates a client. Defaults: 10 s, 1 MiB, 128 connections per host.
    ///
    /// `maximumConnectionsPerHost` matters under load: URLSession's default on Linux is 6, so a
    /// provider answering in 3 s would let only 6 sign-ins talk to it at once while the rest queue
    /// inside the session, their time limit running (measured by `make bench`'s slowfed section).
    public init(timeLimit: TimeInterval = 10, sizeLimit: Int = 1024 * 1024, userAgent: String = "Signet",
                maximumConnectionsPerHost: Int = 128) {
        self.timeLimit = timeLimit
        self.sizeLimit = sizeLimit
        self.userAgent = userAgent
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeLimit
        configuration.timeoutIntervalForResource = timeLimit
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        let delegate = OutboundDelegate(sizeLimit: sizeLimit)
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

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
        return try await send(method: "POST", url: url, body: Array(FormBody.encode(pairs).utf8), headers: headers)
    }

    /// Any request.
    public func send(method: String, url: URL, body: [UInt8]?, headers: [String: String]) async throws(OutboundError) -> OutboundResponse {
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
    }
}
