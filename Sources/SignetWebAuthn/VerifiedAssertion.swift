/// The outcome of a verified assertion: what to store and what to tell the token issuer.
public struct VerifiedAssertion: Sendable, Hashable {
    /// The authenticator's new signature counter (store it).
    public let signCount: UInt32
    /// §7.2 step 22: a counter that did not increase while either value is non-zero: the
    /// authenticator may have been cloned. The signature is valid; the caller decides.
    public let possibleClone: Bool
    /// UV (always true: required).
    public let userVerified: Bool
    /// BE (unchanged from registration).
    public let backupEligible: Bool
    /// BS now (store it: it may change).
    public let backupState: Bool

    /// RFC 8176 `amr` values: `hwk` for a device-bound key or `swk` for a syncable one, and
    /// `user` for the user verification that was required.
    public var amr: [String] {
        [backupEligible ? "swk" : "hwk", "user"]
    }
}
