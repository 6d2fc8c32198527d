/// A small, tolerant scanner for server-rendered HTML: start tags with attributes, end tags and
/// the text between them. Comments are skipped, `<script>` and `<style>` bodies are opaque, and
/// character references in text and attribute values are decoded. No scripts, no tree building.
enum HTMLScanner {
    /// One piece of a document.
    enum Token: Equatable {
        /// `<name attr=value …>`, name lowercased, attributes in order (names lowercased).
        case start(name: String, attributes: [(String, String)], selfClosing: Bool)
        /// `</name>`, lowercased.
        case end(name: String)
        /// Decoded text between tags.
        case text(String)

        static func == (lhs: Token, rhs: Token) -> Bool {
            switch (lhs, rhs) {
            case let (.start(a, x, s), .start(b, y, t)):
                return a == b && s == t && x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            case let (.end(a), .end(b)): return a == b
            case let (.text(a), .text(b)): return a == b
            default: return false
            }
        }
    }

    /// Splits `html` into tokens.
    static func tokens(_ html: String) -> [Token] {
        let bytes = Array(html.utf8)
        var tokens: [Token] = []
        var index = 0
        var textStart = 0
        func flushText(upTo end: Int) {
            if end > textStart { tokens.append(.text(decodeEntities(String(decoding: bytes[textStart..<end], as: UTF8.self)))) }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if starts(bytes, at: index, with: "<!--") {
                flushText(upTo: index)
                index = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                textStart = index
                continue
            }
            if starts(bytes, at: index, with: "<!") || starts(bytes, at: index, with: "<?") {
                flushText(upTo: index)
                index = (bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
                textStart = index
                continue
            }
            let isEnd = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            guard nameStart < bytes.count, isLetter(bytes[nameStart]) else { index += 1; continue }
            flushText(upTo: index)
            var cursor = nameStart
            while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"), bytes[cursor] != UInt8(ascii: "/") {
                cursor += 1
            }
            let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self).lowercased()
            if isEnd {
                cursor = (bytes[cursor...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
                tokens.append(.end(name: name))
                index = cursor
                textStart = index
                continue
            }
            var attributes: [(String, String)] = []
            var selfClosing = false
            while cursor < bytes.count {
                while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < bytes.count else { break }
                if bytes[cursor] == UInt8(ascii: ">") { cursor += 1; break }
                if bytes[cursor] == UInt8(ascii: "/") {
                    selfClosing = cursor + 1 < bytes.count && bytes[cursor + 1] == UInt8(ascii: ">")
                    cursor += 1
                    continue
                }
                let attributeStart = cursor
                while cursor < bytes.count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "="),
                      bytes[cursor] != UInt8(ascii: ">"), !(bytes[cursor] == UInt8(ascii: "/") && cursor > attributeStart) {
                    cursor += 1
                }
                if cursor == attributeStart { cursor += 1; continue }
                let attributeName = String(decoding: bytes[attributeStart..<cursor], as: UTF8.self).lowercased()
                var probe = cursor
                while probe < bytes.count, isSpace(bytes[probe]) { probe += 1 }
                var value = ""
                if probe < bytes.count, bytes[probe] == UInt8(ascii: "=") {
                    probe += 1
                    while probe < bytes.count, isSpace(bytes[probe]) { probe += 1 }
                    if probe < bytes.count, bytes[probe] == UInt8(ascii: "\"") || bytes[probe] == UInt8(ascii: "'") {
                        let quote = bytes[probe]
                        let valueEnd = bytes[(probe + 1)...].firstIndex(of: quote) ?? bytes.count
                        value = String(decoding: bytes[(probe + 1)..<valueEnd], as: UTF8.self)
                        cursor = min(valueEnd + 1, bytes.count)
                    } else {
                        var valueEnd = probe
                        while valueEnd < bytes.count, !isSpace(bytes[valueEnd]), bytes[valueEnd] != UInt8(ascii: ">") { valueEnd += 1 }
                        value = String(decoding: bytes[probe..<valueEnd], as: UTF8.self)
                        cursor = valueEnd
                    }
                }
                attributes.append((attributeName, decodeEntities(value)))
            }
            tokens.append(.start(name: name, attributes: attributes, selfClosing: selfClosing))
            index = cursor
            textStart = index
            if name == "script" || name == "style" || name == "textarea" || name == "title" {
                // Raw text: everything up to the matching end tag is content, not markup.
                let close = findCaseInsensitive(bytes, "</\(name)", from: index) ?? bytes.count
                if close > index {
                    let raw = String(decoding: bytes[index..<close], as: UTF8.self)
                    tokens.append(.text(name == "textarea" || name == "title" ? decodeEntities(raw) : raw))
                }
                index = close
                textStart = index
            }
        }
        flushText(upTo: bytes.count)
        return tokens
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric references;
    /// anything else is left as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let entity = text[text.index(after: index)..<semicolon]
            var replacement: String?
            switch entity {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            case "nbsp": replacement = "\u{A0}"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    replacement = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if entity.hasPrefix("#") {
                    replacement = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let replacement {
                result += replacement
                index = text.index(after: semicolon)
            } else {
                result.append(character)
                index = text.index(after: index)
            }
        }
        return result
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func starts(_ bytes: [UInt8], at index: Int, with prefix: String) -> Bool {
        let needle = Array(prefix.utf8)
        return index + needle.count <= bytes.count && Array(bytes[index..<(index + needle.count)]) == needle
    }

    private static func find(_ bytes: [UInt8], _ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard pattern.count <= bytes.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], Array(bytes[index..<(index + pattern.count)]) == pattern { return index }
            index += 1
        }
        return nil
    }

    private static func findCaseInsensitive(_ bytes: [UInt8], _ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.lowercased().utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            var matched = true
            for offset in 0..<pattern.count {
                var byte = bytes[index + offset]
                if (0x41...0x5A).contains(byte) { byte |= 0x20 }
                if byte != pattern[offset] { matched = false; break }
            }
            if matched { return index }
            index += 1
        }
        return nil
    }
}
