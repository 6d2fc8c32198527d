import Foundation
import SignetStore
import SignetTesting
import Synchronization
import Testing

@Suite("Contract: passkeys", .endToEndLimit)
struct PasskeyContractTests {
    static func user(_ id: String) -> UserRecord {
        UserRecord(id: id, email: "\(id)@example.com", createdAt: t0, updatedAt: t0)
    }

    static func passkey(_ label: String, user: String = "u1", signCount: Int64 = 0, at time: Date = t0) -> PasskeyRecord {
        PasskeyRecord(id: Array(label.utf8), userID: user, publicKey: [0xA5, 0x01, 0x02], signCount: signCount, backupEligible: true,
                      backupState: false, transports: ["internal", "hybrid"], name: "Passkey \(label)", createdAt: time)
    }

    static func ceremony(_ label: String, kind: PasskeyCeremonyRecord.Kind = .assertion, expires: TimeInterval = 300) -> PasskeyCeremonyRecord {
        PasskeyCeremonyRecord(challengeHash: hash(label), kind: kind, userID: kind == .registration ? "u1" : nil, binding: hash("bind"),
                              context: "sgq_handle", createdAt: t0, expiresAt: t0.addingTimeInterval(expires))
    }

    @Test(arguments: Backend.allCases)
    func credentialsAreUniqueListedRenamedAndDeletedPerUser(_ backend: Backend) throws {
        let storage = try backend.make()
        try storage.users.insertUser(Self.user("u1"))
        try storage.users.insertUser(Self.user("u2"))
        let store = storage.passkeys
        try store.insertPasskey(Self.passkey("k1"))
        try store.insertPasskey(Self.passkey("k2", at: t0.addingTimeInterval(1)))
        // Unique across users.
        #expect(throws: StoreError.duplicate) { try store.insertPasskey(Self.passkey("k1", user: "u2")) }
        #expect(try store.passkey(id: Array("k1".utf8)) == Self.passkey("k1"))
        #expect(try store.passkey(id: Array("nope".utf8)) == nil)
        #expect(try store.passkeys(userID: "u1").map(\.name) == ["Passkey k1", "Passkey k2"])
        #expect(try store.passkeys(userID: "u2").isEmpty)
        // Another user can neither rename nor delete it.
        #expect(try !store.renamePasskey(id: Array("k1".utf8), userID: "u2", name: "mine"))
        #expect(try !store.deletePasskey(id: Array("k1".utf8), userID: "u2"))
        #expect(try store.renamePasskey(id: Array("k1".utf8), userID: "u1", name: "Laptop"))
        #expect(try store.passkey(id: Array("k1".utf8))?.name == "Laptop")
        #expect(try store.deletePasskey(id: Array("k2".utf8), userID: "u1"))
        #expect(try store.passkeys(userID: "u1").map(\.name) == ["Laptop"])
        // Deleting the account deletes its passkeys.
        #expect(try storage.users.deleteUser(id: "u1"))
        #expect(try store.passkey(id: Array("k1".utf8)) == nil)
    }

    @Test(arguments: Backend.allCases)
    func aUseRaisesTheCounterOnlyForwardsAndAFlagStopsIt(_ backend: Backend) throws {
        let storage = try backend.make()
        try storage.users.insertUser(Self.user("u1"))
        let store = storage.passkeys
        let id = Array("k1".utf8)
        try store.insertPasskey(Self.passkey("k1", signCount: 5))
        #expect(try store.recordPasskeyUse(id: id, signCount: 6, backupState: true, at: t0.addingTimeInterval(10)))
        let used = try #require(try store.passkey(id: id))
        #expect(used.signCount == 6 && used.backupState && used.lastUsedAt == t0.addingTimeInterval(10))
        // Equal or lower: nothing changes.
        #expect(try !store.recordPasskeyUse(id: id, signCount: 6, backupState: false, at: t0.addingTimeInterval(20)))
        #expect(try !store.recordPasskeyUse(id: id, signCount: 2, backupState: false, at: t0.addingTimeInterval(20)))
        #expect(try store.passkey(id: id) == used)
        #expect(try store.flagPasskey(id: id, at: t0.addingTimeInterval(30)))
        #expect(try !store.flagPasskey(id: id, at: t0.addingTimeInterval(40)))
        #expect(try store.passkey(id: id)?.flaggedAt == t0.addingTimeInterval(30))
        #expect(try !store.recordPasskeyUse(id: id, signCount: 100, backupState: false, at: t0.addingTimeInterval(50)))
        #expect(try store.passkey(id: id)?.signCount == 6)
        // An authenticator that does not count (0 and 0) is recorded every time.
        try store.insertPasskey(Self.passkey("zero"))
        #expect(try store.recordPasskeyUse(id: Array("zero".utf8), signCount: 0, backupState: false, at: t0))
        #expect(try store.recordPasskeyUse(id: Array("zero".utf8), signCount: 0, backupState: false, at: t0))
    }

    @Test(arguments: Backend.allCases)
    func aCeremonyIsUsedOnceForItsKindBeforeItExpires(_ backend: Backend) throws {
        let store = try backend.make().passkeys
        try store.insertCeremony(Self.ceremony("c1"))
        #expect(throws: StoreError.duplicate) { try store.insertCeremony(Self.ceremony("c1")) }
        #expect(try store.consumeCeremony(challengeHash: hash("c1"), kind: .registration, now: t0) == nil)
        #expect(try store.consumeCeremony(challengeHash: hash("c1"), kind: .assertion, now: t0) == Self.ceremony("c1"))
        #expect(try store.consumeCeremony(challengeHash: hash("c1"), kind: .assertion, now: t0) == nil)
        try store.insertCeremony(Self.ceremony("c2", kind: .registration))
        #expect(try store.consumeCeremony(challengeHash: hash("c2"), kind: .registration, now: t0.addingTimeInterval(300)) == nil)
        #expect(try store.consumeCeremony(challengeHash: hash("unknown"), kind: .assertion, now: t0) == nil)
    }

    @Test(arguments: Backend.allCases)
    func purgeDeletesExpiredChallengesOnly(_ backend: Backend) throws {
        let storage = try backend.make()
        try storage.passkeys.insertCeremony(Self.ceremony("old", expires: 10))
        try storage.passkeys.insertCeremony(Self.ceremony("new", expires: 1000))
        #expect(try storage.purge(before: t0.addingTimeInterval(500)) == 1)
        #expect(throws: Never.self) { try storage.passkeys.insertCeremony(Self.ceremony("old")) }
        #expect(throws: StoreError.duplicate) { try storage.passkeys.insertCeremony(Self.ceremony("new")) }
    }

    /// The bounded insert: a full table first loses its expired and used rows; still full, the
    /// new challenge is refused and nothing is stored.
    @Test(arguments: Backend.allCases)
    func aBoundedInsertRemovesSpentChallengesAndRefusesWhenStillFull(_ backend: Backend) throws {
        let store = try backend.make().passkeys
        func at(_ label: String, _ seconds: TimeInterval) -> PasskeyCeremonyRecord {
            PasskeyCeremonyRecord(challengeHash: hash(label), kind: .assertion, userID: nil, binding: hash("bind"), context: "",
                                  createdAt: t0.addingTimeInterval(seconds), expiresAt: t0.addingTimeInterval(seconds + 300))
        }
        for label in ["a", "b", "c"] { #expect(try store.insertCeremony(at(label, 0), maximumRows: 3)) }
        #expect(try !store.insertCeremony(at("d", 1), maximumRows: 3))
        #expect(try store.consumeCeremony(challengeHash: hash("d"), kind: .assertion, now: t0.addingTimeInterval(1)) == nil)
        // A used one makes room; the others are still live, so the next one is refused again.
        #expect(try store.consumeCeremony(challengeHash: hash("a"), kind: .assertion, now: t0.addingTimeInterval(2)) != nil)
        #expect(try store.insertCeremony(at("e", 3), maximumRows: 3))
        #expect(try !store.insertCeremony(at("f", 3), maximumRows: 3))
        #expect(try store.consumeCeremony(challengeHash: hash("b"), kind: .assertion, now: t0.addingTimeInterval(4)) != nil)
        // Expired ones make room too (b, c at 300 s; e lives until 303 s).
        #expect(try store.insertCeremony(at("g", 301), maximumRows: 3))
        #expect(try store.insertCeremony(at("h", 301), maximumRows: 3))
        #expect(try !store.insertCeremony(at("i", 301), maximumRows: 3))
        #expect(try store.consumeCeremony(challengeHash: hash("e"), kind: .assertion, now: t0.addingTimeInterval(302)) != nil)
    }

    /// Racing consumers of one challenge and racing uses with one counter: one each wins.
    @Test(arguments: Backend.allCases)
    func racingConsumersAndRacingUsesHaveOneWinner(_ backend: Backend) throws {
        let storage = try backend.make()
        try storage.users.insertUser(Self.user("u1"))
        let store = storage.passkeys
        try store.insertCeremony(Self.ceremony("race"))
        try store.insertPasskey(Self.passkey("k1", signCount: 1))
        let wins = Mutex<(ceremonies: Int, uses: Int, errors: [String])>((0, 0, []))
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            do {
                let ceremony = try store.consumeCeremony(challengeHash: hash("race"), kind: .assertion, now: t0) != nil
                let use = try store.recordPasskeyUse(id: Array("k1".utf8), signCount: 2, backupState: false, at: t0)
                wins.withLock { $0.ceremonies += ceremony ? 1 : 0; $0.uses += use ? 1 : 0 }
            } catch {
                wins.withLock { $0.errors.append("\(error)") }
            }
        }
        let result = wins.withLock { $0 }
        #expect(result.errors.isEmpty, "\(result.errors.prefix(3))")
        #expect(result.ceremonies == 1)
        #expect(result.uses == 1)
    }
}
