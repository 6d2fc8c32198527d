import Dispatch
import Foundation
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// TOTP factors and recovery codes: a confirmed factor is never replaced, a step and a recovery
/// code are each accepted once, also when many threads race.
@Suite("Contract: second factors", .endToEndLimit)
struct SecondFactorContractTests {
    static func storage(_ backend: Backend) throws -> any SignetStorage {
        let storage = try backend.make()
        try storage.users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        return storage
    }

    static func hashes(_ prefix: String) -> [[UInt8]] { (0..<10).map { Array("\(prefix)-\($0)".utf8) } }

    @Test(arguments: Backend.allCases)
    func enrolmentConfirmationAndRemoval(_ backend: Backend) throws {
        let store = try Self.storage(backend).secondFactors
        #expect(try store.totpFactor(userID: "user-1") == nil)
        #expect(try store.putUnconfirmedTOTP(TOTPFactorRecord(userID: "user-1", sealedSecret: [1], createdAt: t0)))
        // A newer enrolment replaces an unfinished one.
        #expect(try store.putUnconfirmedTOTP(TOTPFactorRecord(userID: "user-1", sealedSecret: [2], createdAt: t0.addingTimeInterval(5))))
        #expect(try store.totpFactor(userID: "user-1") == TOTPFactorRecord(userID: "user-1", sealedSecret: [2], createdAt: t0.addingTimeInterval(5)))
        // Confirming the secret that was replaced changes nothing.
        #expect(try !store.confirmTOTP(userID: "user-1", sealedSecret: [1], step: 100, at: t0, recoveryCodeHashes: Self.hashes("a")))
        #expect(try store.unusedRecoveryCodes(userID: "user-1") == 0)
        #expect(try store.confirmTOTP(userID: "user-1", sealedSecret: [2], step: 100, at: t0.addingTimeInterval(6), recoveryCodeHashes: Self.hashes("a")))
        let confirmed = try #require(try store.totpFactor(userID: "user-1"))
        #expect(confirmed.isConfirmed && confirmed.lastUsedStep == 100 && confirmed.confirmedAt == t0.addingTimeInterval(6))
        #expect(try store.unusedRecoveryCodes(userID: "user-1") == 10)
        // Confirmed: never replaced by an enrolment, never confirmed again.
        #expect(try !store.putUnconfirmedTOTP(TOTPFactorRecord(userID: "user-1", sealedSecret: [3], createdAt: t0)))
        #expect(try !store.confirmTOTP(userID: "user-1", sealedSecret: [2], step: 200, at: t0, recoveryCodeHashes: []))
        #expect(try store.totpFactor(userID: "user-1") == confirmed)
        // New recovery codes replace the old ones.
        #expect(try store.replaceRecoveryCodes(userID: "user-1", hashes: Self.hashes("b"), at: t0))
        #expect(try !store.useRecoveryCode(userID: "user-1", codeHash: Array("a-0".utf8), at: t0))
        #expect(try store.useRecoveryCode(userID: "user-1", codeHash: Array("b-0".utf8), at: t0))
        #expect(try store.unusedRecoveryCodes(userID: "user-1") == 9)
        #expect(try store.removeSecondFactors(userID: "user-1"))
        #expect(try store.totpFactor(userID: "user-1") == nil)
        #expect(try store.unusedRecoveryCodes(userID: "user-1") == 0)
        #expect(try !store.removeSecondFactors(userID: "user-1"))
        #expect(try !store.replaceRecoveryCodes(userID: "user-1", hashes: Self.hashes("c"), at: t0))
    }

    @Test(arguments: Backend.allCases)
    func aStepIsAcceptedOnceAndNeverAnEarlierOne(_ backend: Backend) throws {
        let store = try Self.storage(backend).secondFactors
        _ = try store.putUnconfirmedTOTP(TOTPFactorRecord(userID: "user-1", sealedSecret: [1], createdAt: t0))
        // Unconfirmed: no code is accepted.
        #expect(try !store.useTOTPStep(userID: "user-1", step: 5))
        _ = try store.confirmTOTP(userID: "user-1", sealedSecret: [1], step: 10, at: t0, recoveryCodeHashes: [])
        #expect(try !store.useTOTPStep(userID: "user-1", step: 10))
        #expect(try !store.useTOTPStep(userID: "user-1", step: 9))
        #expect(try store.useTOTPStep(userID: "user-1", step: 11))
        #expect(try !store.useTOTPStep(userID: "user-1", step: 11))
        #expect(try store.totpFactor(userID: "user-1")?.lastUsedStep == 11)
        #expect(try !store.useTOTPStep(userID: "nobody", step: 50))
    }

    @Test(arguments: Backend.allCases)
    func racingUsesOfOneStepAndOneRecoveryCodeWinOnce(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        let store = storage.secondFactors
        _ = try store.putUnconfirmedTOTP(TOTPFactorRecord(userID: "user-1", sealedSecret: [1], createdAt: t0))
        _ = try store.confirmTOTP(userID: "user-1", sealedSecret: [1], step: 10, at: t0, recoveryCodeHashes: Self.hashes("r"))
        let wins = Mutex<[String]>([])
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do {
                for step in Int64(11)...15 where try store.useTOTPStep(userID: "user-1", step: step) {
                    wins.withLock { $0.append("step-\(step)") }
                }
                if try store.useRecoveryCode(userID: "user-1", codeHash: Array("r-3".utf8), at: t0) {
                    wins.withLock { $0.append("code") }
                }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        let all = wins.withLock { $0 }
        // Each step and the code at most once; the code exactly once.
        #expect(Set(all).count == all.count)
        #expect(all.filter { $0 == "code" }.count == 1)
        #expect(all.filter { $0 == "step-15" }.count == 1)
        #expect(try store.totpFactor(userID: "user-1")?.lastUsedStep == 15)
        #expect(try store.unusedRecoveryCodes(userID: "user-1") == 9)
    }

    @Test(arguments: Backend.allCases)
    func deletingTheUserDeletesItsFactors(_ backend: Backend) throws {
        let storage = try Self.storage(backend)
        _ = try storage.secondFactors.putUnconfirmedTOTP(TOTPFactorRecord(userID: "user-1", sealedSecret: [1], createdAt: t0))
        _ = try storage.secondFactors.confirmTOTP(userID: "user-1", sealedSecret: [1], step: 1, at: t0, recoveryCodeHashes: Self.hashes("d"))
        #expect(try storage.users.deleteUser(id: "user-1"))
        #expect(try storage.secondFactors.totpFactor(userID: "user-1") == nil)
        #expect(try storage.secondFactors.unusedRecoveryCodes(userID: "user-1") == 0)
    }
}
