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
        write("info", requestLine(method: entry.method.rawValue, path: entry.path, status: entry.status, seconds: entry.durationSeconds))
    }

    /// The text of a request line. Method and path come from the client: control characters
    /// (a decoded `%0A` would start a forged line) and non-ASCII are escaped, and each is cut at
    /// 256 bytes.
    static func requestLine(method: String, path: String, status: Int, seconds: Double) -> String {
        "\(printable(method)) \(printable(path)) \(status) \(String(format: "%.3f", seconds))s"
    }

    static func printable(_ text: String) -> String {
        var out = ""
        for byte in text.utf8.prefix(256) {
            if byte >= 0x21, byte < 0x7F, byte != UInt8(ascii: "\\") { out.unicodeScalars.append(UnicodeScalar(byte)) } else {
                out += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text.utf8.count > 256 ? out + "…" : out
    }

    private static func write(_ level: String, _ message: String) {
        let stamp = ISO8601DateFormatter().string(from: Date())
        FileHandle.standardError.write(Data("\(stamp) \(level) \(message)\n".utf8))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
