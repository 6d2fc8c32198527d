import Foundation
import SignetCore
import SignetHTTP
import SignetMail
import SignetStore
import SignetWire

/// Makes an email challenge and its mail and stores both in one transaction, so the code exists
/// exactly when its mail is in the outbox. The links are built from the configured issuer, never
/// from a request's `Host` header.
struct ChallengeMailer: Sendable {
    let challenges: EmailChallenges
    let queue: MailQueue
    let issuer: String
    /// The brand the mail carries (the pages' brand).
    let brand: AccountMail.Brand
    /// Whether mail is configured (`mail.smtp_url`): recovery and email sign-in are offered only then.
    let isMailConfigured: Bool

    init(environment: ServerEnvironment, issuer: String) {
        challenges = EmailChallenges(store: environment.storage.emailChallenges, throttle: environment.storage.throttle,
                                     clock: environment.clock, random: environment.random,
                                     tokenHashKey: environment.masterKey.tokenHashKey)
        queue = environment.mail
        self.issuer = issuer
        brand = environment.configuration.brand()
        isMailConfigured = environment.configuration.isMailConfigured
    }

    /// The absolute URL of a Signet path (from the issuer).
    func url(_ path: String, _ parameters: [(String, String)] = []) -> String {
        issuer + path + (parameters.isEmpty ? "" : "?" + FormEncoding.encode(parameters))
    }

    /// What a challenge's mail says: the real mail for an address with an account (`userID` set),
    /// the "no code for you" mail for one without.
    enum Letter {
        /// The verification code, or (no `userID`) "you already have an account".
        case verify
        /// The reset code, or "no account uses this address".
        case reset
        /// The sign-in code, or "no account uses this address".
        case signIn
    }

    /// Makes a challenge of `purpose` for `email` and stores it with its mail, written in
    /// `language` (the request's `Accept-Language`); returns its id. Without `userID` the
    /// challenge can never be answered and the mail carries no code: the caller's answer and work
    /// are the same either way. `newUser` (a sign-up: `userID` is its id) and `audit` are stored in
    /// the same transaction, so a sign-up makes one commit whether the address is new or known.
    /// `instead` (only without `userID`) is the mail sent in place of the "no code for you" one.
    func send(_ purpose: EmailChallengePurpose, to email: String, userID: String?, browserValue: String?,
              requestHandle: String?, signUpOpen: Bool, language: PageLanguage, newUser: UserRecord? = nil,
              audit: AuditEvent? = nil, instead: AccountMail? = nil) throws -> String {
        let issued = try challenges.make(purpose: purpose, email: email, userID: userID, browserValue: browserValue,
                                         requestHandle: requestHandle)
        let link = url(Routes.emailLink, [("token", issued.linkToken)])
        let letter: AccountMail
        switch (purpose, userID != nil) {
        case (_, false) where instead != nil: letter = instead ?? .noAccount(signUpLink: nil)
        case (.verifyEmail, true): letter = .verifyEmail(code: issued.code, link: link, minutes: issued.minutes)
        case (.resetPassword, true): letter = .resetPassword(code: issued.code, link: link, minutes: issued.minutes)
        case (.signIn, true): letter = .signInCode(code: issued.code, link: link, minutes: issued.minutes)
        // A mail to an address the requester only typed carries nothing of the requester's own
        // sign-in (its pending request handle): its links start afresh.
        case (.verifyEmail, false):
            letter = .accountExists(signInLink: url(Routes.account), resetLink: url(Routes.passwordForgot))
        case (.changeEmail, true): letter = .confirmNewEmail(code: issued.code, link: link, minutes: issued.minutes)
        case (.changeEmail, false): letter = .emailInUse(signInLink: url(Routes.account))
        case (.resetPassword, false), (.signIn, false):
            letter = .noAccount(signUpLink: signUpOpen ? url(Routes.signUp) : nil)
        }
        try challenges.store(issued, mail: try seal(letter, to: email, language: language), newUser: newUser, audit: audit)
        queue.notifySender()
        return issued.record.id
    }

    /// A notice without a challenge (the factor locked) to `email` in `language`, in its own
    /// transaction; nothing without `mail.smtp_url`.
    func notify(_ letter: AccountMail, to email: String, language: PageLanguage) throws {
        guard isMailConfigured else { return }
        try queue.outbox.enqueue(try seal(letter, to: email, language: language))
        queue.notifySender()
    }

    /// `letter` to `email` in `language`, sealed for the outbox (the caller stores it with its action).
    func seal(_ letter: AccountMail, to email: String, language: PageLanguage) throws -> OutboxMessageRecord {
        try queue.seal(letter, to: email, brand: brand, language: language)
    }
}
