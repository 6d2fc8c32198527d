import Foundation

/// The server log: one line per event on standard error. Never given a code, token, verifier,
/// nonce, password, email or callback URL.
public enum Log {
    /// Something an operator should know.
    public static func info(_ message: String) { write("info", message) }
    /// Something went wrong.
    public static func error(_ message: String) { write("error", message) }

    private static func write(_ level: String, _ message: String) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        FileHandle.standardError.write(Data("\(stamp) \(level) \(message)\n".utf8))
    }
}
