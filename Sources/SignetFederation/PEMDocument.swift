import Foundation

/// A PEM block (RFC 7468): a label and the DER bytes between `-----BEGIN label-----` and
/// `-----END label-----`.
public struct PEMDocument: Sendable {
    /// The label, such as `PRIVATE KEY`.
    public let label: String
    /// The decoded bytes. May be secret: `description` never shows them.
    public let der: [UInt8]

    /// Parses the first PEM block of `text`. Throws `FederationError.misconfigured` when there is
    /// none, the labels do not match, or the base64 is invalid.
    public init(parsing text: String) throws(FederationError) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") }) else {
            throw .misconfigured("the key is not PEM (no BEGIN line)")
        }
        let label = String(lines[begin].dropFirst("-----BEGIN ".count).dropLast(5))
        guard let end = lines[(begin + 1)...].firstIndex(of: "-----END \(label)-----") else {
            throw .misconfigured("the PEM block has no matching END line")
        }
        let body = lines[(begin + 1)..<end].joined()
        guard let data = Data(base64Encoded: body), !data.isEmpty else { throw .misconfigured("the PEM body is not valid base64") }
        self.label = label
        self.der = [UInt8](data)
    }
}

extension PEMDocument: CustomStringConvertible {
    /// The label only.
    public var description: String { "PEMDocument(\(label), <redacted>)" }
}
