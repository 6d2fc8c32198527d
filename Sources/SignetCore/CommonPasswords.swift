import CSignetData

/// The passwords too common to accept (NIST SP 800-63B §3.1.1.2: a new password is compared
/// with a list of commonly used or compromised values): those of 8 to 64 characters among the
/// 100,000 most used in leaked credentials, built into the binary (`CSignetData`).
///
/// The list is sorted by byte value and searched in place: no copy, no set, no start-up cost.
public enum CommonPasswords {
    /// How many passwords the list holds.
    public static var count: Int { lines.count }

    /// Whether `password`, as typed or in lower case, is on the list.
    public static func contains(_ password: String) -> Bool {
        let typed = Array(password.utf8)
        if contains(bytes: typed) { return true }
        let lower = Array(password.lowercased().utf8)
        return lower != typed && contains(bytes: lower)
    }

    private static func contains(bytes: [UInt8]) -> Bool {
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            let line = lines[middle]
            let order = compare(line, bytes)
            if order == 0 { return true }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// The list as it is embedded (read-only data of the binary, never written: safe to share),
    /// and where each line starts and ends.
    nonisolated(unsafe) private static let data: UnsafeBufferPointer<UInt8> = {
        var length = 0
        let start = signet_common_passwords(&length)
        return UnsafeBufferPointer(start: start, count: length)
    }()

    private static let lines: [Range<Int>] = {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(50_000)
        var start = 0
        for index in data.indices where data[index] == UInt8(ascii: "\n") {
            if index > start { ranges.append(start..<index) }
            start = index + 1
        }
        if start < data.count { ranges.append(start..<data.count) }
        return ranges
    }()

    /// Byte-wise order of a line of the list against `bytes`: negative, zero or positive.
    private static func compare(_ line: Range<Int>, _ bytes: [UInt8]) -> Int {
        let shared = min(line.count, bytes.count)
        for offset in 0..<shared {
            let a = data[line.lowerBound + offset]
            let b = bytes[offset]
            if a != b { return Int(a) - Int(b) }
        }
        return line.count - bytes.count
    }
}
