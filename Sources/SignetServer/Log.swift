import Foundation
import SignetHTTP

/// The server log: one line per event on standard error. Never given a code, token, verifier,
/// nonce, password, email or callback URL.
public enum Log {
    /// Something an operator should know.
    public static func info(_ message: String) { write("info", message) }
    /// Something went wrong.
    public static func error(_ message: String) { write("error", message) }

    /// One request line (`log.requests`): method, path, status and duration, never the query.
    @Sendable public static func request(_ entry: AccessLogEntry) {
        write("info", "\(entry.method.rawValue) \(entry.path) \(entry.status) \(String(format: "%.3f", entry.durationSeconds))s")
    }

    private static func write(_ level: String, _ message: String) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        FileHandle.standardError.write(Data("\(stamp) \(level) \(message)\n".utf8))
    }
}
