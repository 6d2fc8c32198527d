import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The date text of internet messages, in UTC: `Sun, 06 Nov 1994 08:49:37` and a zone. The one
/// formatter for HTTP's `Expires` and mail's `Date`, fixed English names, no locale.
public enum InternetDate {
    /// RFC 9110 §5.6.7 IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func imfFixdate(_ date: Date) -> String {
        text(date, zone: "GMT")
    }

    /// RFC 5322 §3.3 in UTC, e.g. `Tue, 01 Dec 2026 11:50:00 +0000` (RFC 5322 §4.3: `GMT` is an
    /// obsolete zone a mail must not be written with).
    public static func rfc5322(_ date: Date) -> String {
        text(date, zone: "+0000")
    }

    private static func text(_ date: Date, zone: String) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let day = days[Int(parts.tm_wday) % 7], month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) \(zone)"
    }
}
