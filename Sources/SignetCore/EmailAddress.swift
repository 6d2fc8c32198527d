import CLibIDN2
import Foundation

/// The one rule for an email address entering Signet (sign-up, sign-in, recovery, email codes,
/// `signet users`, a provider's `email` claim), so an address is compared the same everywhere.
///
/// Normalised: surrounding whitespace trimmed, the local part lowercased (the store compares
/// lowercased), and the domain in its A-label form: an international domain (`bücher.example`)
/// goes through libidn2, IDNA2008 with UTS #46 non-transitional processing and NFC (RFC 5891
/// §5, UTS #46 §4), so `user@bücher.example`, `user@BÜCHER.example` and
/// `user@xn--bcher-kva.example` are one address; an `xn--` label must be a valid A-label (it is
/// decoded and encoded again, RFC 5891 §5.4). Refused: more than 254 bytes once normalised
/// (RFC 5321 §4.5.3.1.3 path limit less the brackets), a local part over 64 bytes (§4.5.3.1.1),
/// not exactly one `@`, spaces, controls or the specials `<>()[]\,;:"`, dots at either end of
/// the local part or two in a row (RFC 5322 §3.4.1 dot-atom), a domain that is not two or more
/// LDH labels of 1–63 bytes (RFC 1035 §2.3.1) after conversion, and a local part outside ASCII:
/// Signet's mail goes out without SMTPUTF8 (RFC 6531), so such an address cannot be delivered.
public enum EmailAddress {
    /// The longest address accepted, in bytes.
    public static let maximumBytes = 254
    /// The longest input looked at, in bytes (a U-label is shorter than its A-label, so the limit
    /// is applied to the normalised address; this only bounds the work on hostile input).
    static let maximumInputBytes = 1024

    /// The normalised address, or why it is refused.
    public static func normalize(_ raw: String) throws(UserServiceError) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= maximumInputBytes else { throw tooLong }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw invalid }
        guard parts[0].utf8.allSatisfy({ $0 < 0x80 }) else {
            throw UserServiceError("the part before the @ must be ASCII: addresses with non-ASCII names cannot be used", reason: .emailLocalNotASCII)
        }
        let local = parts[0].lowercased()
        guard !local.isEmpty, local.utf8.count <= 64,
              local.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !specials.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { throw local.utf8.count > 64 ? tooLong : invalid }
        let email = local + "@" + (try normalizeDomain(String(parts[1])))
        guard email.utf8.count <= maximumBytes else { throw tooLong }
        return email
    }

    /// A domain as addresses are compared: lowercase LDH labels, at least two, an international
    /// domain in its A-label form. Throws for anything else.
    public static func normalizeDomain(_ raw: String) throws(UserServiceError) -> String {
        guard raw.utf8.count <= maximumInputBytes else { throw invalidDomain }
        // ASCII outside letters, digits, hyphens and dots is refused here, before libidn2: UTS #46
        // would silently drop some of it (a space, an underscore), making another address.
        guard raw.utf8.allSatisfy({ $0 >= 0x80 || $0 == 0x2E || ldh.contains($0 | 0x20) }) else { throw invalidDomain }
        var domain = raw.lowercased()
        if !domain.utf8.allSatisfy({ $0 < 0x80 }) || domain.split(separator: ".").contains(where: { $0.hasPrefix("xn--") }) {
            domain = try aLabels(raw)
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard domain.utf8.count <= 253, labels.count >= 2,
              labels.allSatisfy({ label in
                  !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                      && label.utf8.allSatisfy { ldh.contains($0) }
              })
        else { throw invalidDomain }
        return domain
    }

    /// libidn2's lookup conversion (`idn2_to_ascii_8z`): NFC, UTS #46 non-transitional mapping
    /// (so `ß` stays `ß`, as browsers resolve it), STD3 rules, IDNA2008 validity (bidi, joiners,
    /// contextual rules), and the A-label round trip of `xn--` labels.
    static func aLabels(_ domain: String) throws(UserServiceError) -> String {
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NFC_INPUT.rawValue | IDN2_NONTRANSITIONAL.rawValue | IDN2_USE_STD3_ASCII_RULES.rawValue)
        let status = idn2_to_ascii_8z(domain, &output, flags)
        defer { idn2_free(output) }
        guard status == Int32(IDN2_OK.rawValue), let output else { throw invalidDomain }
        return String(cString: output).lowercased()
    }

    private static var invalid: UserServiceError { UserServiceError("not a valid email address", reason: .emailInvalid) }
    private static var tooLong: UserServiceError { UserServiceError("the email address is too long", reason: .emailTooLong) }
    private static var invalidDomain: UserServiceError {
        UserServiceError("the part after the @ is not a valid domain", reason: .emailDomainInvalid)
    }
    private static let specials: Set<UInt8> = Set("<>()[]\\,;:\"".utf8)
    private static let ldh: Set<UInt8> = Set("abcdefghijklmnopqrstuvwxyz0123456789-".utf8)
}
