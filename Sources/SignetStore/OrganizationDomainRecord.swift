import Foundation
import SignetMacros

/// An email domain an organization claims (`organization_domains`): proven by a DNS TXT record
/// or by an operator, then bound to one of the configured connections with a policy.
@MemberwiseInit
public struct OrganizationDomainRecord: Sendable, Equatable {
    /// How a claim was proven.
    public enum Verification: String, Sendable, CaseIterable {
        /// The TXT record `_signet-challenge.<domain>` held the claim's token.
        case dns
        /// An operator marked it verified (CLI or admin API).
        case `operator`
    }

    /// What a governed domain allows besides its connection.
    public enum Policy: String, Sendable, CaseIterable {
        /// Home-realm discovery sends the domain's users to the connection; other ways stay open.
        case optional
        /// Only the connection: password sign-in, sign-up and other providers are refused.
        case ssoRequired = "sso_required"
    }

    /// The domain, normalized (`EmailAddress.normalizeDomain`: lowercase LDH labels, A-labels only).
    public var domain: String
    /// The claiming organization (`org_…`).
    public var organizationID: String
    /// The value the TXT record must carry (public: it is published in DNS).
    public var verificationToken: String
    /// When the claim was proven; nil while it is not.
    public var verifiedAt: Date? = nil
    /// How it was proven.
    public var verifiedBy: Verification? = nil
    /// The connection (a `connections[].id`) the domain's users are sent to; nil: not bound.
    public var connectionID: String? = nil
    /// The policy of a bound domain.
    public var policy: Policy = .optional
    /// When the claim was made.
    public var createdAt: Date

    /// Verified and bound to a connection: the domain is governed.
    public var isGoverned: Bool { verifiedAt != nil && connectionID != nil }
}
