import SignetMacros

/// A response read off a raw socket: the status, the head as text, and the body.
@MemberwiseInit
public struct RawHTTPResponse: Sendable, CustomStringConvertible {
    /// The status code.
    public let status: Int
    /// The status line and header lines.
    public let head: String
    /// The body (by `Content-Length`).
    public let body: [UInt8]

    /// The first header named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The head and the start of the body, for failure messages.
    public var description: String { "\(head)\n\n\(text.prefix(300))" }
}
