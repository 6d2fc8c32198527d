import Foundation
import SignetSQL
import SignetStore
import SignetTesting
import Testing

@Suite("Contract: purge in batches, bulk insert", .endToEndLimit)
struct PurgeBatchContractTests {
    /// The purge deletes in transactions of `batchSize` rows per table (so a large purge does
    /// not hold the write lock for its whole length): with batches smaller than every table's
    /// expired rows, and counts that are not multiples of the batch, it still deletes exactly
    /// the expired rows, counts each (tokens with their grants), and keeps everything live.
    @Test(arguments: Backend.allCases)
    func batchedPurgeDeletesExactlyTheExpiredRows(_ backend: Backend) throws {
        let storage = try backend.make()
        let stores = try #require(storage as? any SQLStorage).stores
        let day: Double = 86_400
        for index in 0..<7 {
            try storage.refreshTokens.createGrant(Fixture.grant("old-\(index)", lifetime: 300))
            try storage.refreshTokens.insertRefreshToken(Fixture.token("old-rt-\(index)", grant: "old-\(index)"))
        }
        // Two tokens in one expired family (a rotated one and its successor): both go with it.
        try storage.refreshTokens.insertRefreshToken(Fixture.token("old-rt-0b", grant: "old-0"))
        // A revoked family (revoked_at in the past, absolute expiry in the future) goes too.
        try storage.refreshTokens.createGrant(Fixture.grant("revoked", lifetime: 30 * day))
        try storage.refreshTokens.insertRefreshToken(Fixture.token("revoked-rt", grant: "revoked"))
        #expect(try storage.refreshTokens.revokeGrant(id: "revoked", reason: "logout", now: t0))
        for index in 0..<3 {
            try storage.refreshTokens.createGrant(Fixture.grant("new-\(index)", lifetime: 30 * day))
            try storage.refreshTokens.insertRefreshToken(Fixture.token("new-rt-\(index)", grant: "new-\(index)"))
        }
        for index in 0..<5 { try storage.sessions.insertSession(Fixture.session("old-s-\(index)")) }
        for index in 0..<3 { try storage.codes.insertCode(Fixture.code("old-code-\(index)", expiresIn: 300)) }
        try storage.codes.insertCode(Fixture.code("new-code", expiresIn: 3 * day))

        // 8 expired families with 9 tokens, 5 sessions, 3 codes.
        #expect(try stores.purge(before: t0.addingTimeInterval(2 * day), batchSize: 2) == 8 + 9 + 5 + 3)
        for index in 0..<7 {
            #expect(try storage.refreshTokens.grant(id: "old-\(index)") == nil)
            #expect(try storage.refreshTokens.refreshToken(hash: hash("old-rt-\(index)"), grantID: "old-\(index)") == nil)
        }
        #expect(try storage.refreshTokens.refreshToken(hash: hash("old-rt-0b"), grantID: "old-0") == nil)
        #expect(try storage.refreshTokens.grant(id: "revoked") == nil)
        for index in 0..<3 {
            #expect(try storage.refreshTokens.isGrantActive(id: "new-\(index)", now: t0))
            #expect(try storage.refreshTokens.refreshToken(hash: hash("new-rt-\(index)"), grantID: "new-\(index)") != nil)
        }
        guard case .consumed = try storage.codes.consumeCode(codeHash: hash("new-code"), now: t0) else {
            Issue.record("the live code should have survived")
            return
        }
        #expect(try stores.purge(before: t0.addingTimeInterval(2 * day), batchSize: 2) == 0)
    }

    /// `SQLStores.bulkInsert` (the scale benchmark's loader) writes rows the stores read back as
    /// their own, and appends audit events to the chain so it still verifies.
    @Test(arguments: Backend.allCases)
    func bulkInsertedRowsAreServedByTheStores(_ backend: Backend) throws {
        let storage = try backend.make()
        let stores = try #require(storage as? any SQLStorage).stores
        var rows = SQLBulkRows()
        rows.users = [Fixture.user("user-1", email: "ada@example.com")]
        rows.sessions = [Fixture.session("s1")]
        rows.grants = [Fixture.grant("g1")]
        rows.tokens = [Fixture.token("rt1", grant: "g1")]
        rows.codes = [Fixture.code("c1", grantID: "g1")]
        rows.audit = [AuditEvent(event: "token_issued", subjectID: "user-1", at: t0),
                      AuditEvent(event: "token_issued", subjectID: "user-1", at: t0.addingTimeInterval(1))]
        try stores.bulkInsert(rows)
        #expect(try storage.users.user(id: "user-1")?.email == "ada@example.com")
        #expect(try storage.sessions.session(idHash: hash("s1"), now: t0) == Fixture.session("s1"))
        #expect(try storage.refreshTokens.grant(id: "g1") == Fixture.grant("g1"))
        #expect(try storage.refreshTokens.refreshToken(hash: hash("rt1"), grantID: "g1") == Fixture.token("rt1", grant: "g1"))
        let rotated = try storage.refreshTokens.rotateRefreshToken(
            tokenHash: hash("rt1"), grantID: "g1", clientID: "app", successorHash: hash("rt2"), successorExpiresAt: t0.addingTimeInterval(3_600),
            now: t0.addingTimeInterval(10), graceSeconds: 0)
        guard case .rotated = rotated else {
            Issue.record("a bulk-inserted token should rotate, got \(rotated)")
            return
        }
        guard case .intact(let events, let head, _) = try storage.audit.verifyAudit() else {
            Issue.record("the audit chain should verify after a bulk insert")
            return
        }
        #expect(events == 2 && head == 2)
    }
}
