import Foundation
import SignetFormEncoding
import SignetMacros

/// One message to one person: a plain-text body and optionally an HTML one beside it.
///
/// `rendered` writes it as RFC 5322 with MIME (RFC 2045–2047): CRLF line ends, bodies in UTF-8
/// as base64 in lines of 76, non-ASCII or long header text as encoded words, `Auto-Submitted:
/// auto-generated` (RFC 3834) so that vacation responders stay quiet.
@MemberwiseInit
public struct MailMessage: Sendable, Equatable {
    /// The sender's address (the header and the envelope).
    public var from: MailAddress
    /// The sender's display name, such as the product name.
    public var fromName: String? = nil
    /// The one recipient.
    public var to: MailAddress
    /// The subject line.
    public var subject: String
    /// The plain-text body.
    public var text: String
    /// The HTML body, if any: then the message is `multipart/alternative`.
    public var html: String? = nil

    /// The message as sent. `messageID` is the part inside `<>` (for example
    /// `random@example.com`); `boundary` separates the two bodies and must not occur in them
    /// (a long random string never does, because the bodies are base64).
    public func rendered(messageID: String, date: Date, boundary: String) throws(MailError) -> [UInt8] {
        var head = ""
        func header(_ name: String, _ value: String) { head += name + ": " + value + "\r\n" }
        header("From", try Self.mailbox(fromName, from))
        header("To", to.address)
        header("Subject", try Self.headerText(subject))
        header("Date", InternetDate.rfc5322(date))
        header("Message-ID", "<" + (try Self.plainHeader(messageID)) + ">")
        header("MIME-Version", "1.0")
        header("Auto-Submitted", "auto-generated")
        guard let html else {
            header("Content-Type", "text/plain; charset=utf-8")
            header("Content-Transfer-Encoding", "base64")
            return Array((head + "\r\n" + Self.base64Lines(text)).utf8)
        }
        let separator = try Self.plainHeader(boundary)
        header("Content-Type", "multipart/alternative; boundary=\"\(separator)\"")
        var body = "--\(separator)\r\n"
        body += "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + Self.base64Lines(text)
        body += "--\(separator)\r\n"
        body += "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + Self.base64Lines(html)
        body += "--\(separator)--\r\n"
        return Array((head + "\r\n" + body).utf8)
    }

    /// `Name <address>`, the name quoted (RFC 5322 §3.2.4) or as encoded words when not ASCII.
    static func mailbox(_ name: String?, _ address: MailAddress) throws(MailError) -> String {
        guard let name, !name.isEmpty else { return address.address }
        try refuseControls(name)
        if name.unicodeScalars.allSatisfy({ $0.isASCII }) && name.utf8.count <= 60 {
            let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\" <\(address.address)>"
        }
        return encodedWords(name) + "\r\n <\(address.address)>"
    }

    /// Header text: as it is when short printable ASCII, else RFC 2047 encoded words, folded.
    static func headerText(_ text: String) throws(MailError) -> String {
        try refuseControls(text)
        if text.unicodeScalars.allSatisfy({ $0.isASCII }) && text.utf8.count <= 76 { return text }
        return encodedWords(text)
    }

    /// A header value that must be printable ASCII as it is (ids, boundaries).
    static func plainHeader(_ text: String) throws(MailError) -> String {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }) else {
            throw MailError.badHeader
        }
        return text
    }

    private static func refuseControls(_ text: String) throws(MailError) {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { throw MailError.badHeader }
    }

    /// `=?utf-8?B?…?=` words of at most 75 characters (RFC 2047 §2), split between characters,
    /// never inside one, joined by a fold.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            // 39 bytes of UTF-8 make 52 characters of base64; with `=?utf-8?B?` and `?=` that is 64,
            // and a line with a header name before it stays within 78 (RFC 5322 §2.1.1).
            if chunk.count + bytes.count > 39, !chunk.isEmpty {
                words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words.joined(separator: "\r\n ")
    }

    /// Base64 of the UTF-8 text in lines of 76 characters, each ended by CRLF (RFC 2045 §6.8).
    static func base64Lines(_ text: String) -> String {
        let encoded = Array(Data(text.utf8).base64EncodedString().utf8)
        return stride(from: 0, to: encoded.count, by: 76).map { start in
            String(decoding: encoded[start..<min(start + 76, encoded.count)], as: UTF8.self) + "\r\n"
        }.joined()
    }
}
