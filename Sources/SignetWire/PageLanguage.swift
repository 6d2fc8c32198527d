/// The languages Signet's pages are written in, chosen per request from `Accept-Language`.
public enum PageLanguage: String, Sendable, CaseIterable {
    /// English, the default and the fallback of every missing translation.
    case en
    /// German.
    case de

    /// The language a browser asks for: the supported language of the highest-weighted range in
    /// `Accept-Language` (RFC 9110 §12.5.4: weights `q=0` to `q=1`, `q=0` refuses; the order of the
    /// header breaks ties), matched on the primary subtag (RFC 4647 §3.3.1: `de-CH` is German);
    /// `*`, nothing acceptable, a missing or unreadable header: English.
    public static func preferred(acceptLanguage header: String?) -> PageLanguage {
        guard let header else { return .en }
        var ranges: [(tag: Substring, weight: Int, position: Int)] = []
        var refused: Set<PageLanguage> = []
        for (position, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";")
            guard let first = parts.first else { continue }
            let tag = first.trimmingSpaces.lowercased()
            var weight = 1000
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces
                guard pair.lowercased().hasPrefix("q=") else { continue }
                guard let value = qValue(pair.dropFirst(2)) else { weight = -1; break }
                weight = value
            }
            guard weight >= 0, !tag.isEmpty else { continue }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            if weight == 0 {
                if let language = PageLanguage(rawValue: primary) { refused.insert(language) }
                continue
            }
            ranges.append((Substring(tag), weight, position))
        }
        ranges.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.position < $1.position }
        for range in ranges {
            if range.tag == "*" { return allCases.first { !refused.contains($0) } ?? .en }
            let primary = range.tag.split(separator: "-").first.map(String.init) ?? String(range.tag)
            if let language = PageLanguage(rawValue: primary), !refused.contains(language) { return language }
        }
        return .en
    }

    /// RFC 9110 §12.4.2: `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qValue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard bytes.count > 1 else { return value }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes.dropFirst(2) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (the header's optional whitespace).
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
