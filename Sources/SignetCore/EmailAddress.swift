import Foundation

/// The one rule for an email address entering Signet (sign-up, sign-in, recovery, email codes,
/// `signet users`, a provider's `email` claim), so an address is compared the same everywhere.
///
/// Normalised: surrounding whitespace trimmed, then lowercased (the store compares lowercased).
/// Refused: more than 254 bytes (RFC 5321 §4.5.3.1.3 path limit less the brackets), a local part
/// over 64 bytes (§4.5.3.1.1), not exactly one `@`, spaces, controls or the specials
/// `<>()[]\,;:"`, dots at either end of the local part or two in a row (RFC 5322 §3.4.1
/// dot-atom), and a domain that is not two or more LDH labels of 1–63 bytes (RFC 1035 §2.3.1).
/// Anything outside ASCII is refused with its own message: Signet's mail goes out without
/// SMTPUTF8 (RFC 6531), so a non-ASCII local part cannot be delivered, and an international
/// domain must be given in its ASCII (`xn--`) form (RFC 5890 A-labels).
public enum EmailAddress {
    /// The longest address accepted, in bytes.
    public static let maximumBytes = 254

    /// The normalised address, or why it is refused.
    public static func normalize(_ raw: String) throws(UserServiceError) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= maximumBytes else { throw UserServiceError("the email address is too long") }
        guard trimmed.utf8.allSatisfy({ $0 < 0x80 }) else {
            throw UserServiceError("the email address must be ASCII: write an international domain in its xn-- form; addresses with non-ASCII names cannot be used")
        }
        let email = trimmed.lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw invalid }
        let local = parts[0]
        guard !local.isEmpty, local.utf8.count <= 64,
              local.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !specials.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { throw invalid }
        _ = try normalizeDomain(String(parts[1]))
        return email
    }

    /// A domain as addresses are compared: lowercase LDH labels, at least two. Throws for
    /// anything else (a non-ASCII domain included).
    public static func normalizeDomain(_ raw: String) throws(UserServiceError) -> String {
        let domain = raw.lowercased()
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard domain.utf8.count <= 253, labels.count >= 2,
              labels.allSatisfy({ label in
                  !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                      && label.utf8.allSatisfy { ldh.contains($0) }
              })
        else { throw invalid }
        return domain
    }

    private static var invalid: UserServiceError { UserServiceError("not a valid email address") }
    private static let specials: Set<UInt8> = Set("<>()[]\\,;:\"".utf8)
    private static let ldh: Set<UInt8> = Set("abcdefghijklmnopqrstuvwxyz0123456789-".utf8)
}
