import Foundation

/// Authorization codes: single use, short lived.
public protocol AuthorizationCodeStore: Sendable {
    /// Stores a new code. Throws `.duplicate` if the hash exists.
    func insertCode(_ code: AuthorizationCodeRecord) throws

    /// Redeems the code in one atomic step. Of any number of concurrent calls for one code, exactly
    /// one gets `.consumed`; every later call gets `.alreadyConsumed` (even after expiry), so replays
    /// are always seen. An unredeemed code with `now >= expiresAt` gives `.expired` and stays unredeemed.
    func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption
}
