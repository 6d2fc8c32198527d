import Foundation

/// Authorization codes: single use, short lived.
public protocol AuthorizationCodeStore: Sendable {
    /// Stores a new code. Throws `.duplicate` if the hash exists.
    func insertCode(_ code: AuthorizationCodeRecord) throws

    /// Redeems the code in one atomic step. Of any number of concurrent calls for one code, exactly
    /// one gets `.consumed`; every later call gets `.alreadyConsumed` (even after expiry), so replays
    /// are always seen. An unredeemed code with `now >= expiresAt` gives `.expired` and stays unredeemed.
    func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption

    /// Deletes every code of the user that was not redeemed yet, so none of them can start a grant
    /// family (a password change, a disabled user); returns how many. Redeemed codes stay, so a
    /// replay of one is still recognised.
    @discardableResult
    func deleteUnredeemedCodes(userID: String) throws -> Int
}
