import Foundation
import SignetStore
import SignetTesting
import Testing

/// Console sessions: found by hash until they expire, single row per hash, deleted by sign-out,
/// gone with their user, purged once expired.
@Suite("Contract: console sessions", .endToEndLimit)
struct ConsoleSessionContractTests {
    static func record(_ label: String, user: String = "user-1", lifetime: Double = 900) -> ConsoleSessionRecord {
        ConsoleSessionRecord(idHash: hash(label), userID: user, grantID: "grant-\(label)", scope: "admin:clients:read admin:keys:read",
                             bindingHash: hash("binding-\(label)"), createdAt: t0, expiresAt: t0.addingTimeInterval(lifetime))
    }

    @Test(arguments: Backend.allCases)
    func insertFindExpireDeleteCascadeAndPurge(_ backend: Backend) throws {
        let storage = try backend.make()
        try storage.users.insertUser(Fixture.user("user-1", email: "ada@example.com"))
        try storage.users.insertUser(Fixture.user("user-2", email: "bob@example.com"))
        let sessions = storage.consoleSessions
        let first = Self.record("first")
        try sessions.insertConsoleSession(first)
        try sessions.insertConsoleSession(Self.record("second", user: "user-2"))
        try sessions.insertConsoleSession(Self.record("short", lifetime: 60))
        #expect(try sessions.consoleSession(idHash: hash("first"), now: t0.addingTimeInterval(899)) == first)
        #expect(try sessions.consoleSession(idHash: hash("first"), now: t0.addingTimeInterval(900)) == nil)
        #expect(try sessions.consoleSession(idHash: hash("nothing"), now: t0) == nil)
        #expect(throws: StoreError.duplicate) { try sessions.insertConsoleSession(first) }
        // Sign-out deletes exactly that session.
        #expect(try sessions.deleteConsoleSession(idHash: hash("first")))
        #expect(try !sessions.deleteConsoleSession(idHash: hash("first")))
        #expect(try sessions.consoleSession(idHash: hash("first"), now: t0) == nil)
        #expect(try sessions.consoleSession(idHash: hash("second"), now: t0) != nil)
        // The purge takes the expired session and leaves the live one.
        _ = try storage.purge(before: t0.addingTimeInterval(120))
        #expect(try sessions.consoleSession(idHash: hash("short"), now: t0) == nil)
        #expect(try sessions.consoleSession(idHash: hash("second"), now: t0) != nil)
        // A session goes with its user; one for a user that does not exist is refused.
        _ = try storage.users.deleteUser(id: "user-2")
        #expect(try sessions.consoleSession(idHash: hash("second"), now: t0) == nil)
        #expect(throws: (any Error).self) { try sessions.insertConsoleSession(Self.record("ghost", user: "nobody")) }
    }
}
