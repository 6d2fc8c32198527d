import Foundation
import SignetCrypto

/// The DNS proof of a domain claim: the organization publishes the claim's token as a TXT record
/// at `_signet-challenge.<domain>`, in the form `signet-domain-verification=<token>`.
public enum DomainProof {
    /// The label the TXT record sits under.
    public static let label = "_signet-challenge"
    /// The prefix of the record's value.
    public static let valuePrefix = "signet-domain-verification="

    /// The name to publish the record at.
    public static func recordName(_ domain: String) -> String { "\(label).\(domain)" }

    /// The record's whole value.
    public static func recordValue(_ token: String) -> String { valuePrefix + token }

    /// A fresh token: 24 random bytes, base64url.
    public static func newToken(_ random: any RandomSource) -> String { Base64URL.encode(random.bytes(24)) }

    /// Why a proof failed.
    public enum Failure: Error, Equatable, Sendable {
        /// No TXT record at the name.
        case recordMissing
        /// TXT records exist there, none with the token.
        case recordMismatch
        /// The lookup failed (try again later).
        case lookupFailed(String)
    }

    /// Checks the published record through `resolver`; returns normally when one TXT record at
    /// the name equals the expected value (constant-time compare, surrounding spaces ignored).
    public static func check(domain: String, token: String, resolver: any TXTResolver) throws(Failure) {
        let records: [String]
        do { records = try resolver.txtRecords(recordName(domain)) } catch {
            switch error {
            case .noRecord: throw .recordMissing
            case .failed(let detail): throw .lookupFailed(detail)
            }
        }
        let expected = Array(recordValue(token).utf8)
        let matched = records.contains { record in
            constantTimeEquals(Array(record.trimmingCharacters(in: .whitespaces).utf8), expected)
        }
        guard matched else { throw records.isEmpty ? .recordMissing : .recordMismatch }
    }
}
