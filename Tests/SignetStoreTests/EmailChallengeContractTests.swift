import Dispatch
import Foundation
import SignetStore
import SignetTesting
import Synchronization
import Testing

@Suite("Contract: email challenges", .endToEndLimit)
struct EmailChallengeContractTests {
    static func challenge(_ id: String, purpose: EmailChallengePurpose = .verifyEmail, code: String = "123456",
                          link: String? = nil, lifetime: Double = 600) -> EmailChallengeRecord {
        EmailChallengeRecord(id: id, purpose: purpose, email: "a@example.com", userID: "u1", codeHash: Array("code-\(code)".utf8),
                             linkHash: Array("link-\(link ?? id)".utf8), browserHash: Array("browser".utf8), sealedRequest: nil,
                             createdAt: t0, expiresAt: t0.addingTimeInterval(lifetime))
    }

    /// A sign-up's user, challenge, mail and audit event are one transaction: all four, or (the
    /// address taken by a racing sign-up) none.
    @Test(arguments: Backend.allCases)
    func aSignUpStoresItsUserChallengeMailAndAuditEventTogetherOrNothing(_ backend: Backend) throws {
        let store = try backend.make()
        let user = UserRecord(id: "u1", email: "a@example.com", emailVerified: false, passwordHash: "x", createdAt: t0, updatedAt: t0)
        let mail = OutboxMessageRecord(id: "mail1", sealedMessage: [1], createdAt: t0)
        let event = AuditEvent(event: "sign_up", subjectID: "u1", at: t0)
        try store.emailChallenges.insertChallenge(Self.challenge("c1"), mail: mail, newUser: user, audit: event)
        #expect(try store.users.user(email: "a@example.com")?.id == "u1")
        #expect(try store.emailChallenges.challenge(id: "c1")?.userID == "u1")
        #expect(try store.mailOutbox.message(id: "mail1") == mail)
        #expect(try store.audit.recentAudit(limit: 10).map(\.event) == ["sign_up"])

        // The same address again: `.duplicate`, and no challenge, mail or event of the second try.
        let racer = UserRecord(id: "u2", email: "a@example.com", emailVerified: false, passwordHash: "x", createdAt: t0, updatedAt: t0)
        #expect(throws: StoreError.duplicate) {
            try store.emailChallenges.insertChallenge(Self.challenge("c2"), mail: OutboxMessageRecord(id: "mail2", sealedMessage: [2], createdAt: t0),
                                                      newUser: racer, audit: AuditEvent(event: "sign_up", subjectID: "u2", at: t0))
        }
        #expect(try store.users.user(id: "u2") == nil)
        #expect(try store.emailChallenges.challenge(id: "c2") == nil)
        #expect(try store.mailOutbox.message(id: "mail2") == nil)
        #expect(try store.audit.recentAudit(limit: 10).count == 1)
    }

    @Test(arguments: Backend.allCases)
    func codeAttemptsAreCountedAndTheRightCodeAnswersOnce(_ backend: Backend) throws {
        let store = try backend.make()
        let challenges = store.emailChallenges
        let mail = OutboxMessageRecord(id: "mail1", sealedMessage: [1, 2, 3], createdAt: t0)
        try challenges.insertChallenge(Self.challenge("c1"), mail: mail)
        #expect(try store.mailOutbox.message(id: "mail1") == mail)
        #expect(throws: StoreError.duplicate) { try challenges.insertChallenge(Self.challenge("c1", link: "other"), mail: nil) }
        #expect(try challenges.challenge(id: "c1") == Self.challenge("c1"))
        #expect(try challenges.challenge(linkHash: Array("link-c1".utf8))?.id == "c1")

        let wrong = Array("code-000000".utf8)
        let right = Array("code-123456".utf8)
        let now = t0.addingTimeInterval(10)
        // Another purpose is not this challenge.
        #expect(try challenges.answer(id: "c1", purpose: .signIn, codeHash: right, maxAttempts: 5, now: now) == .dead)
        #expect(try challenges.answer(id: "c1", purpose: .verifyEmail, codeHash: wrong, maxAttempts: 5, now: now) == .wrong(attemptsLeft: 4))
        guard case .accepted(let used) = try challenges.answer(id: "c1", purpose: .verifyEmail, codeHash: right, maxAttempts: 5, now: now) else {
            Issue.record("the right code was not accepted")
            return
        }
        #expect(used.consumedAt == now && used.attempts == 2 && used.userID == "u1")
        // Replayed: dead, and the link of a used challenge does nothing either.
        #expect(try challenges.answer(id: "c1", purpose: .verifyEmail, codeHash: right, maxAttempts: 5, now: now) == .dead)
        #expect(try challenges.answer(linkHash: Array("link-c1".utf8), purpose: .verifyEmail, maxAttempts: 5, now: now) == nil)
        #expect(try challenges.challenge(id: "c1")?.attempts == 2)
    }

    @Test(arguments: Backend.allCases)
    func fiveWrongCodesKillTheChallengeAndItsLink(_ backend: Backend) throws {
        let challenges = try backend.make().emailChallenges
        try challenges.insertChallenge(Self.challenge("c2"), mail: nil)
        let now = t0.addingTimeInterval(1)
        for left in (0..<5).reversed() {
            #expect(try challenges.answer(id: "c2", purpose: .verifyEmail, codeHash: [0], maxAttempts: 5, now: now) == .wrong(attemptsLeft: left))
        }
        #expect(try challenges.answer(id: "c2", purpose: .verifyEmail, codeHash: Array("code-123456".utf8), maxAttempts: 5, now: now) == .dead)
        #expect(try challenges.answer(linkHash: Array("link-c2".utf8), purpose: .verifyEmail, maxAttempts: 5, now: now) == nil)
        #expect(try challenges.challenge(id: "c2")?.attempts == 5)
    }

    @Test(arguments: Backend.allCases)
    func expiredChallengesAnswerNothingAndArePurged(_ backend: Backend) throws {
        let store = try backend.make()
        let challenges = store.emailChallenges
        try challenges.insertChallenge(Self.challenge("c3", purpose: .resetPassword, lifetime: 900), mail: nil)
        let expiry = t0.addingTimeInterval(900)
        #expect(try challenges.answer(id: "c3", purpose: .resetPassword, codeHash: Array("code-123456".utf8), maxAttempts: 5, now: expiry) == .dead)
        #expect(try challenges.answer(linkHash: Array("link-c3".utf8), purpose: .resetPassword, maxAttempts: 5, now: expiry) == nil)
        #expect(try challenges.challenge(id: "c3")?.attempts == 0)
        let before = expiry.addingTimeInterval(-1)
        #expect(try challenges.answer(linkHash: Array("link-c3".utf8), purpose: .resetPassword, maxAttempts: 5, now: before)?.id == "c3")
        #expect(try store.purge(before: expiry.addingTimeInterval(1)) == 1)   // the one challenge, nothing else was stored
        #expect(try challenges.challenge(id: "c3") == nil)
    }

    /// 16 threads answer one challenge at once, half by code, half by link: exactly one wins.
    @Test(arguments: Backend.allCases)
    func racingAnswersLetExactlyOneWin(_ backend: Backend) throws {
        let challenges = try backend.make().emailChallenges
        let rounds = 20
        for round in 0..<rounds { try challenges.insertChallenge(Self.challenge("race\(round)"), mail: nil) }
        let wins = Mutex<[String]>([])
        let errors = Mutex<[String]>([])
        for round in 0..<rounds {
            DispatchQueue.concurrentPerform(iterations: 16) { thread in
                do {
                    let id = "race\(round)"
                    if thread % 2 == 0 {
                        if case .accepted(let row) = try challenges.answer(id: id, purpose: .verifyEmail, codeHash: Array("code-123456".utf8),
                                                                           maxAttempts: 50, now: t0.addingTimeInterval(1)) {
                            wins.withLock { $0.append(row.id) }
                        }
                    } else if let row = try challenges.answer(linkHash: Array("link-\(id)".utf8), purpose: .verifyEmail, maxAttempts: 50,
                                                              now: t0.addingTimeInterval(1)) {
                        wins.withLock { $0.append(row.id) }
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0.prefix(3) })")
        let won = wins.withLock { $0 }
        #expect(won.count == rounds)
        #expect(Set(won).count == rounds)
    }

    /// 16 threads guessing at once get no more than the 5 attempts between them.
    @Test(arguments: Backend.allCases)
    func racingGuessesGetFiveAttemptsInAll(_ backend: Backend) throws {
        let challenges = try backend.make().emailChallenges
        try challenges.insertChallenge(Self.challenge("guess"), mail: nil)
        let counted = Atomic<Int>(0)
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            do {
                for guess in 0..<4 {
                    let code = Array("code-\(thread)-\(guess)".utf8)
                    if case .wrong = try challenges.answer(id: "guess", purpose: .verifyEmail, codeHash: code, maxAttempts: 5,
                                                           now: t0.addingTimeInterval(1)) {
                        counted.add(1, ordering: .relaxed)
                    }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0.prefix(3) })")
        #expect(counted.load(ordering: .relaxed) == 5)
        #expect(try challenges.challenge(id: "guess")?.attempts == 5)
    }
}
