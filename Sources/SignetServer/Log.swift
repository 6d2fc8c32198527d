import Foundation
import SignetHTTP
import SignetJOSE
import Synchronization

/// The server log: one line per event on standard error, by default one JSON object per line
/// (`logging.format`), filtered by `logging.level`. A line written while a request is handled
/// carries its request id (`RequestContext`). Never given a code, token, verifier, nonce,
/// password, email or callback URL.
///
/// JSON lines: `{"time":"…","level":"info","msg":"…","request_id":"…"}`; request lines add
/// `method`, `path`, `status`, `duration_ms` and `address`. Text lines: `time level [request id] message`.
public enum Log {
    /// The level and format (`LogLevel.rank` and 0 json / 1 text), set once by `signet serve`.
    private static let settings = Atomic<Int>(encode(level: .info, format: .json))

    /// Sets the least severe level written and the line format (`logging.level`, `logging.format`).
    public static func configure(level: LogLevel, format: LogFormat) {
        settings.store(encode(level: level, format: format), ordering: .relaxed)
    }

    private static func encode(level: LogLevel, format: LogFormat) -> Int { level.rank * 2 + (format == .text ? 1 : 0) }

    /// Per-step detail, for finding a problem.
    public static func debug(_ message: String) { write(.debug, message) }
    /// Something an operator should know.
    public static func info(_ message: String) { write(.info, message) }
    /// Something unusual that Signet handled.
    public static func warning(_ message: String) { write(.warning, message) }
    /// Something went wrong.
    public static func error(_ message: String) { write(.error, message) }

    /// One request line (`log.requests`): method, path, status and duration, never the query.
    @Sendable public static func request(_ entry: AccessLogEntry) {
        let text = requestLine(method: entry.method.rawValue, path: entry.path, status: entry.status, seconds: entry.durationSeconds)
        write(.info, text, requestID: entry.requestID, fields: [
            ("method", .string(printable(entry.method.rawValue))), ("path", .string(printable(entry.path))),
            ("status", .number(entry.status)), ("duration_ms", .number(Int((entry.durationSeconds * 1000).rounded()))),
            ("address", .string(printable(entry.clientAddress))),
        ])
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

    /// A text line's message and request id: upstream and SMTP error text reach them, so every
    /// control character (C0, DEL, C1, the Unicode line and paragraph separators) is written as
    /// `\u{XX}` and no message can end its line and forge the next; other text stays readable.
    static func textEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    enum Field {
        case string(String)
        case number(Int)
    }

    /// The line for `message` at `level`, or nil when the level is filtered out; `format` (tests)
    /// overrides the configured format.
    static func line(_ level: LogLevel, _ message: String, requestID: String?, fields: [(String, Field)] = [],
                     now: Date = Date(), format: LogFormat? = nil) -> String? {
        let current = settings.load(ordering: .relaxed)
        guard level.rank >= current / 2 else { return nil }
        let stamp = timestamp(now)
        if (format.map { $0 == .text }) ?? (current % 2 == 1) {
            return "\(stamp) \(level.rawValue)\(requestID.map { " [\(textEscaped($0))]" } ?? "") \(textEscaped(message))"
        }
        var json = "{\"time\":\(quoted(stamp)),\"level\":\(quoted(level.rawValue)),\"msg\":\(quoted(message))"
        if let requestID { json += ",\"request_id\":\(quoted(requestID))" }
        for (name, value) in fields {
            switch value {
            case .string(let text): json += ",\(quoted(name)):\(quoted(text))"
            case .number(let number): json += ",\(quoted(name)):\(number)"
            }
        }
        return json + "}"
    }

    private static func write(_ level: LogLevel, _ message: String, requestID: String? = RequestContext.current?.requestID,
                              fields: [(String, Field)] = []) {
        guard let text = line(level, message, requestID: requestID, fields: fields) else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// RFC 3339 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// A JSON string (SignetJOSE's serializer: `"` and `\` escaped, control characters as
    /// `\u00XX`), so a message can never end its line or its object early.
    static func quoted(_ text: String) -> String { JSONValue.string(text).serializedString() }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
