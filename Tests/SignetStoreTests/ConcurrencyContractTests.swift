import Dispatch
import Foundation
import SignetSQL
import SignetStore
import SignetTesting
import Synchronization
import Testing

/// Many threads racing on the same artifacts: single use must hold on every backend.
@Suite("Contract: concurrent single use", .endToEndLimit)
struct ConcurrencyContractTests {
    static let threads = 16
    static let artifacts = 200

    /// Runs `work(thread)` on `threads` threads at once and collects what each returns.
    func race<T: Sendable>(threads: Int, _ work: @Sendable (Int) throws -> [T]) -> (results: [T], errors: [String]) {
        let results = Mutex<[T]>([])
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do {
                let mine = try work(thread)
                results.withLock { $0.append(contentsOf: mine) }
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        return (results.withLock { $0 }, errors.withLock { $0 })
    }

    /// Check and count are one step: 160 racing attempts on a key with room for 25 get 25 yeses.
    @Test(arguments: Backend.allCases)
    func throttleHitIfUnderAdmitsExactlyTheLimit(_ backend: Backend) throws {
        let storage = try backend.make()
        let limits = [ThrottleLimit(key: "race:pair", limit: 25, windowSeconds: 900),
                      ThrottleLimit(key: "race:account", limit: Int.max, windowSeconds: 900)]
        let (results, errors) = race(threads: Self.threads) { _ in
            try (0..<10).map { _ in try storage.throttle.hitIfUnder(limits, now: t0) }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(results.count == Self.threads * 10)
        #expect(results.filter { $0 }.count == 25)
        #expect(try storage.throttle.hitCount(key: "race:pair", windowSeconds: 900, now: t0) == 25)
        #expect(try storage.throttle.hitCount(key: "race:account", windowSeconds: 900, now: t0) == 25)
    }

    @Test(arguments: Backend.allCases)
    func concurrentFirstSignInsOfOneIdentityLeaveOneUserAndNoOrphan(_ backend: Backend) throws {
        let storage = try backend.make()
        let identities = 40
        // Every thread provisions every identity as a user of its own (own id, own email): only
        // the identity's uniqueness can stop it, so a loser that stored its user would show.
        let (results, errors) = race(threads: 8) { thread in
            try (0..<identities).map { step in
                let index = (step + thread * 5) % identities
                let userID = "u-\(thread)-\(index)"
                let user = Fixture.user(userID, email: "t\(thread).i\(index)@example.com")
                let link = FederatedIdentityRecord(connectionID: "google", issuer: "https://accounts.google.com",
                                                   subject: "sub-\(index)", userID: userID, createdAt: t0)
                do {
                    try storage.users.insertUser(user, withFederatedIdentity: link)
                    return (index, true)
                } catch StoreError.duplicate {
                    return (index, false)
                }
            }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(results.count == 8 * identities)
        let winners = Dictionary(grouping: results.filter(\.1), by: \.0)
        #expect(winners.count == identities)
        #expect(winners.values.allSatisfy { $0.count == 1 })
        let users = try storage.users.allUsers()
        #expect(users.count == identities)
        for user in users { #expect(try storage.users.federatedIdentities(userID: user.id).count == 1) }
        // A taken email stores neither the user nor its identity; a mismatched user id is refused.
        let taken = try #require(users.first)
        let other = FederatedIdentityRecord(connectionID: "github", issuer: "https://github.com", subject: "7", userID: "fresh",
                                            createdAt: t0)
        #expect(throws: StoreError.duplicate) {
            try storage.users.insertUser(Fixture.user("fresh", email: taken.email), withFederatedIdentity: other)
        }
        #expect(try storage.users.user(id: "fresh") == nil)
        #expect(try storage.users.federatedIdentity(connectionID: "github", issuer: "https://github.com", subject: "7") == nil)
        #expect(throws: StoreError.notFound) {
            try storage.users.insertUser(Fixture.user("someone", email: "someone@example.com"), withFederatedIdentity: other)
        }
        #expect(try storage.users.user(id: "someone") == nil)
    }

    @Test(arguments: Backend.allCases)
    func codesAreRedeemedExactlyOnce(_ backend: Backend) throws {
        let storage = try backend.make()
        for index in 0..<Self.artifacts { try storage.codes.insertCode(Fixture.code("race-\(index)")) }
        let (results, errors) = race(threads: Self.threads) { thread in
            // Each thread walks every code, starting at a different place.
            try (0..<Self.artifacts).map { step in
                let index = (step + thread * 13) % Self.artifacts
                let outcome = try storage.codes.consumeCode(codeHash: hash("race-\(index)"), now: t0.addingTimeInterval(1))
                switch outcome {
                case .consumed: return (index, 1)
                case .alreadyConsumed: return (index, 0)
                default: return (index, -1)
                }
            }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(results.count == Self.threads * Self.artifacts)
        #expect(!results.contains { $0.1 == -1 })
        let winners = Dictionary(grouping: results.filter { $0.1 == 1 }, by: \.0)
        #expect(winners.count == Self.artifacts)
        #expect(winners.values.allSatisfy { $0.count == 1 })
    }

    @Test(arguments: Backend.allCases)
    func noncesAndPendingRequestsAreUsedExactlyOnce(_ backend: Backend) throws {
        let storage = try backend.make()
        for index in 0..<Self.artifacts {
            try storage.nonces.insertNonce(nonceHash: hash("nonce-\(index)"), clientID: "app", createdAt: t0,
                                           expiresAt: t0.addingTimeInterval(300))
            try storage.authorizationRequests.insertPendingAuthorization(PendingAuthorizationRecord(
                idHash: hash("req-\(index)"), clientID: "app", payload: "{}", createdAt: t0,
                expiresAt: t0.addingTimeInterval(600)))
        }
        let (results, errors) = race(threads: Self.threads) { thread in
            try (0..<Self.artifacts).flatMap { step in
                let index = (step + thread * 7) % Self.artifacts
                let nonce = try storage.nonces.consumeNonce(nonceHash: hash("nonce-\(index)"), clientID: "app", now: t0)
                let request = try storage.authorizationRequests.consumePendingAuthorization(idHash: hash("req-\(index)"),
                                                                                            now: t0)
                return [("n", index, nonce), ("r", index, request != nil)]
            }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        let nonceWins = results.filter { $0.0 == "n" && $0.2 }.map(\.1)
        let requestWins = results.filter { $0.0 == "r" && $0.2 }.map(\.1)
        #expect(nonceWins.sorted() == Array(0..<Self.artifacts))
        #expect(requestWins.sorted() == Array(0..<Self.artifacts))
    }

    @Test(arguments: Backend.allCases)
    func concurrentRotationsOfOneTokenMakeOneChain(_ backend: Backend) throws {
        let storage = try backend.make()
        let families = 20
        for family in 0..<families {
            try storage.refreshTokens.createGrant(Fixture.grant("g\(family)"))
            try storage.refreshTokens.insertRefreshToken(Fixture.token("rt-\(family)", grant: "g\(family)"))
        }
        // 8 threads present each family's token at once; each derives the same successor from it.
        let (results, errors) = race(threads: 8) { _ in
            try (0..<families).map { family in
                try (family, storage.refreshTokens.rotateRefreshToken(
                    tokenHash: hash("rt-\(family)"), grantID: "g\(family)", clientID: "app", successorHash: hash("rt-\(family)-next"),
                    successorExpiresAt: t0.addingTimeInterval(3_601), now: t0.addingTimeInterval(1), graceSeconds: 30))
            }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        for family in 0..<families {
            let outcomes = results.filter { $0.0 == family }.map(\.1)
            var rotated = 0
            var retried = 0
            for outcome in outcomes {
                switch outcome {
                case .rotated(let rotation):
                    rotated += 1
                    #expect(rotation.successor.tokenHash == hash("rt-\(family)-next"))
                case .graceRetry(let rotation):
                    retried += 1
                    #expect(rotation.successor.tokenHash == hash("rt-\(family)-next"))
                default:
                    Issue.record("family \(family): unexpected \(outcome)")
                }
            }
            #expect(rotated == 1 && retried == 7)
            #expect(try storage.refreshTokens.isGrantActive(id: "g\(family)", now: t0.addingTimeInterval(1)))
        }
    }

    /// 16 threads sign in at once to families of the same new profiles (client, scope,
    /// resources, `amr`; migration 20): every grant is created and reads back whole, and each
    /// profile is stored once.
    @Test(arguments: Backend.allCases)
    func concurrentGrantsOfNewProfilesShareOneRowEach(_ backend: Backend) throws {
        let storage = try backend.make()
        let profiles = 10
        let (results, errors) = race(threads: Self.threads) { thread in
            try (0..<profiles).map { step in
                let index = (step + thread) % profiles
                var grant = Fixture.grant("g-\(thread)-\(index)", client: "race-app")
                grant.scope = "openid offline_access s\(index)"
                try storage.refreshTokens.createGrant(grant)
                return grant
            }
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(results.count == Self.threads * profiles)
        for grant in results {
            #expect(try storage.refreshTokens.grant(id: grant.grantID) == grant)
        }
        let sql = try #require(storage as? any SQLStorage)
        let stored = try sql.stores.transaction { db in
            try db.one("SELECT COUNT(*) FROM grant_profiles WHERE client_id = 'race-app'", []) { try $0.int64(0) }
        }
        #expect(stored == Int64(profiles))
    }
}

