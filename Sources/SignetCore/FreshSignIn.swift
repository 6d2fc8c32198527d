import Foundation
import SignetStore
import SignetWire

/// Whether a sign-in may add a credential to its account (a passkey): it must be recent
/// (`maximumAge`) and at the account's own level (multi-factor when the account has a second
/// factor), so a copied session cookie or access token cannot turn itself into a lasting
/// credential that skips the second factor (NIST SP 800-63B §6.1.2.1: binding an authenticator
/// needs authentication at the account's assurance level).
public struct FreshSignIn: Sendable {
    /// How long after a sign-in it counts as fresh: account deletion, email change and passkey
    /// registration all use this window.
    public static let maximumAge: TimeInterval = 300

    let secondFactors: any SecondFactorStore
    let clock: any Clock

    /// Over the server's store and clock.
    public init(server: AuthorizationServer) {
        self.secondFactors = server.storage.secondFactors
        self.clock = server.clock
    }

    /// What a sign-in lacks.
    public enum Verdict: Sendable, Equatable {
        /// Recent and at the account's level.
        case fresh
        /// Signed in longer ago than `maximumAge` (or at an unknown time).
        case stale
        /// Recent but below the account's level (`needed`), e.g. no second factor for a TOTP account.
        case belowLevel(needed: AuthenticationLevel)
    }

    /// The level the account's own sign-in reaches: multi-factor with a confirmed TOTP factor.
    public func accountLevel(userID: String) throws -> AuthenticationLevel {
        try secondFactors.totpFactor(userID: userID)?.isConfirmed == true ? .multiFactor : .password
    }

    /// Judges a sign-in of `userID` at `authTime` with methods `amr` (RFC 8176).
    public func verdict(userID: String, authTime: Date?, amr: [String]) throws -> Verdict {
        guard let authTime, clock.now.timeIntervalSince(authTime) <= Self.maximumAge else { return .stale }
        let needed = try accountLevel(userID: userID)
        return AuthenticationLevel(amr: amr) >= needed ? .fresh : .belowLevel(needed: needed)
    }

    /// Judges a browser session.
    public func verdict(_ session: ActiveSession) throws -> Verdict {
        try verdict(userID: session.user.id, authTime: session.record.authTime, amr: session.record.amr)
    }
}
