import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Refuses every redirect, so the caller gets the 3xx and its raw `Location` header.
///
/// Must be the session's delegate: on Linux a per-task delegate is ignored, and a redirect to a
/// private-use scheme would be resolved against the server's host (TOOLCHAIN-NOTES §7).
final class NoRedirectDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
