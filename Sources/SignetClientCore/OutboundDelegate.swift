import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The session delegate of `OutboundHTTP`: refuses redirects, enforces the size limit while the
/// body arrives, and completes each task's continuation exactly once.
final class OutboundDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Completion = @Sendable (Result<OutboundResponse, OutboundError>) -> Void

    private struct Pending {
        var completion: Completion
        var body: [UInt8] = []
        var redirected = false
        var tooLarge = false
        var challenged: HTTPURLResponse?
    }

    private let sizeLimit: Int
    private let pending = Mutex<[Int: Pending]>([:])

    init(sizeLimit: Int) {
        self.sizeLimit = sizeLimit
    }

    /// Registers the completion of a task before it is resumed.
    func register(_ taskIdentifier: Int, _ completion: @escaping Completion) {
        pending.withLock { $0[taskIdentifier] = Pending(completion: completion) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        pending.withLock { $0[task.taskIdentifier]?.redirected = true }
        completionHandler(nil)
    }

    /// A 401 with `WWW-Authenticate` (token endpoints answer `invalid_client` that way): without
    /// this handler FoundationNetworking on Linux stalls; rejecting cancels the task, so the 401
    /// is reported as a response with whatever body arrived (often none).
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse
        pending.withLock { $0[task.taskIdentifier]?.challenged = response }
        completionHandler(.rejectProtectionSpace, nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let limit = sizeLimit
        if response.expectedContentLength > Int64(limit) {
            pending.withLock { $0[dataTask.taskIdentifier]?.tooLarge = true }
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = sizeLimit
        let exceeded: Bool = pending.withLock { table in
            guard var entry = table[dataTask.taskIdentifier], !entry.tooLarge else { return false }
            if entry.body.count + data.count > limit {
                entry.tooLarge = true
                entry.body = []
                table[dataTask.taskIdentifier] = entry
                return true
            }
            entry.body.append(contentsOf: data)
            table[dataTask.taskIdentifier] = entry
            return false
        }
        if exceeded { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        entry.completion(Self.outcome(entry, response: task.response, error: error))
    }

    private static func outcome(_ entry: Pending, response: URLResponse?, error: (any Error)?) -> Result<OutboundResponse, OutboundError> {
        if entry.tooLarge { return .failure(.tooLarge) }
        if let http = response as? HTTPURLResponse, (300..<400).contains(http.statusCode), http.statusCode != 304 {
            return .failure(.redirected)
        }
        if entry.redirected { return .failure(.redirected) }
        if let challenged = entry.challenged ?? (response as? HTTPURLResponse).flatMap({ $0.statusCode == 401 ? $0 : nil }),
           error != nil {
            return .success(OutboundResponse(status: challenged.statusCode, headers: Self.headers(of: challenged), body: entry.body))
        }
        if let error {
            if let urlError = error as? URLError {
                if urlError.code == .timedOut { return .failure(.timeout) }
                return .failure(.transport("URL error \(urlError.code.rawValue)"))
            }
            return .failure(.transport("request failed"))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.transport("not an HTTP response")) }
        return .success(OutboundResponse(status: http.statusCode, headers: Self.headers(of: http), body: entry.body))
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String, let value = value as? String else { continue }
            headers[name.lowercased()] = value
        }
        return headers
    }
}
