import Foundation

/// Authorization codes: single use, short lived.
public protocol AuthorizationCodeStore: Sendable {
    /// Stores a new code. Throws `.duplicate` if the hash exists.
    func insertCode(_ code: AuthorizationCodeRecord) throws

    /// Redeems the code in one atomic step. Of any number of concurrent calls for one code, exactly
    /// one gets `.consumed`; every later call gets `.alreadyConsumed` (even after expiry), so replays
    /// are always seen. An unredeemed code with `now >= expiresAt` gives `.expired` and stays unredeemed.
    func consumeCode(codeHash: [UInt8], now: Date) throws -> CodeConsumption

    /// The code's row as stored (redeemed or not, expired or not), without locking or changing
    /// it; nil if no code has this hash. Only a look: the redemption itself is `redeemCode`.
    func code(codeHash: [UInt8]) throws -> AuthorizationCodeRecord?

    /// Redeems the code as `consumeCode(codeHash:now:)` does and, when this call redeems it,
    /// stores the grant family it starts and that family's first refresh token in the same
    /// transaction (one commit): a redeemed code always has its family, and if either cannot be
    /// stored the code stays unredeemed. `grant.grantID` (and `firstToken.grantID`) must be the
    /// code's `grantID`; otherwise nothing is written and it throws `.corrupt`. Any other outcome
    /// writes nothing and is returned as `consumeCode` returns it.
    func redeemCode(codeHash: [UInt8], now: Date, grant: GrantRecord, firstToken: RefreshTokenRecord?) throws -> CodeConsumption

    /// Deletes every code of the user that was not redeemed yet, so none of them can start a grant
    /// family (a password change, a disabled user); returns how many. Redeemed codes stay, so a
    /// replay of one is still recognised.
    @discardableResult
    func deleteUnredeemedCodes(userID: String) throws -> Int
}
