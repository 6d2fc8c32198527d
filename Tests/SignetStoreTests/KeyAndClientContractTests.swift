import Foundation
import SignetStore
import SignetTesting
import Synchronization
import Testing

@Suite("Contract: signing keys and clients", .endToEndLimit)
struct KeyAndClientContractTests {
    static func key(_ id: String, _ algorithm: String = "RS256", activatesAt: Date = t0) -> SigningKeyRecord {
        SigningKeyRecord(id: id, algorithm: algorithm, encryptedPrivateKey: [1], publicJWK: #"{"kty":"RSA"}"#,
                         createdAt: t0, activatesAt: activatesAt)
    }

    @Test(arguments: Backend.allCases)
    func aFirstKeyIsStoredOnlyWhenNoneCanSign(_ backend: Backend) throws {
        let store = try backend.make().keys
        let now = t0.addingTimeInterval(10)
        // A key that signs only later does not count.
        try store.insertKey(Self.key("later", activatesAt: t0.addingTimeInterval(3_600)))
        #expect(try store.insertKeyUnlessOneCanSign(Self.key("a"), now: now))
        #expect(try store.insertKeyUnlessOneCanSign(Self.key("b"), now: now) == false)
        #expect(try store.insertKeyUnlessOneCanSign(Self.key("c", "ES256"), now: now))
        try store.retireKey(id: "a", retiredAt: now, removeAfter: now.addingTimeInterval(60))
        #expect(try store.insertKeyUnlessOneCanSign(Self.key("d"), now: now))
        #expect(try store.allKeys().map(\.id).sorted() == ["a", "c", "d", "later"])
    }

    /// Eight nodes starting together on an empty store: exactly one key per algorithm.
    @Test(arguments: Backend.allCases)
    func racingFirstKeysYieldOne(_ backend: Backend) throws {
        let storage = try backend.make()
        let stored = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if (try? storage.keys.insertKeyUnlessOneCanSign(Self.key("node-\(index)"), now: t0)) == true {
                stored.add(1, ordering: .sequentiallyConsistent)
            }
        }
        #expect(stored.load(ordering: .sequentiallyConsistent) == 1)
        #expect(try storage.keys.allKeys().count == 1)
    }

    @Test(arguments: Backend.allCases)
    func keysInsertListRetireDelete(_ backend: Backend) throws {
        let store = try backend.make().keys
        let g0 = try store.keysGeneration()
        let old = SigningKeyRecord(id: "k1", algorithm: "RS256", encryptedPrivateKey: [9, 8, 7], publicJWK: #"{"kty":"RSA"}"#,
                                   createdAt: t0, activatesAt: t0)
        let next = SigningKeyRecord(id: "k2", algorithm: "ES256", encryptedPrivateKey: [1], publicJWK: #"{"kty":"EC"}"#,
                                    createdAt: t0.addingTimeInterval(10), activatesAt: t0.addingTimeInterval(3_600))
        try store.insertKey(next)
        try store.insertKey(old)
        #expect(throws: StoreError.duplicate) { try store.insertKey(old) }
        #expect(try store.allKeys() == [old, next])
        #expect(try store.keysGeneration() != g0)

        let g1 = try store.keysGeneration()
        try store.retireKey(id: "k1", retiredAt: t0.addingTimeInterval(3_600), removeAfter: t0.addingTimeInterval(7_200))
        #expect(try store.keysGeneration() != g1)
        #expect(throws: StoreError.notFound) {
            try store.retireKey(id: "nope", retiredAt: t0, removeAfter: t0)
        }
        let retired = try #require(try store.allKeys().first)
        #expect(retired.retiredAt == t0.addingTimeInterval(3_600))
        #expect(retired.removeAfter == t0.addingTimeInterval(7_200))
        #expect(retired.canSign(at: t0.addingTimeInterval(3_599)))
        #expect(!retired.canSign(at: t0.addingTimeInterval(3_600)))
        #expect(!next.canSign(at: t0) && next.canSign(at: t0.addingTimeInterval(3_600)))

        #expect(try store.deleteRemovedKeys(now: t0.addingTimeInterval(7_200)) == 0)   // strictly before
        #expect(try store.deleteRemovedKeys(now: t0.addingTimeInterval(7_201)) == 1)
        #expect(try store.allKeys().map(\.id) == ["k2"])
        #expect(!String(describing: old).contains("9, 8, 7"))
    }

    @Test(arguments: Backend.allCases)
    func clientsUpsertGetListDelete(_ backend: Backend) throws {
        let store = try backend.make().clients
        let g0 = try store.clientsGeneration()
        let client = Fixture.client("b-app")
        try store.upsertClient(client)
        try store.upsertClient(Fixture.client("a-app"))
        #expect(try store.client(id: "b-app") == client)
        #expect(try store.client(id: "missing") == nil)
        #expect(try store.allClients().map(\.id) == ["a-app", "b-app"])
        let g1 = try store.clientsGeneration()
        #expect(g1 != g0)

        var changed = client
        changed.name = "Renamed"
        changed.secretHash = nil
        changed.secretSalt = nil
        changed.isPublic = true
        changed.redirectURIs = []
        changed.lifetimes.accessToken = nil
        changed.createdAt = t0.addingTimeInterval(999)   // ignored on replace
        changed.updatedAt = t0.addingTimeInterval(60)
        try store.upsertClient(changed)
        var expected = changed
        expected.createdAt = t0
        #expect(try store.client(id: "b-app") == expected)
        #expect(try store.clientsGeneration() != g1)

        let g2 = try store.clientsGeneration()
        #expect(try store.deleteClient(id: "b-app"))
        #expect(try !store.deleteClient(id: "b-app"))
        #expect(try store.client(id: "b-app") == nil)
        #expect(try store.clientsGeneration() != g2)
        #expect(!client.description.contains("secret-"))
    }
}

@Suite("Contract: value round trips", .endToEndLimit)
struct RoundTripContractTests {
    @Test(arguments: Backend.allCases)
    func emptyValuesStayEmptyAndNilStaysNil(_ backend: Backend) throws {
        let store = try backend.make().clients
        var client = Fixture.client("")
        client.name = ""
        client.secretHash = []
        client.secretSalt = nil
        client.redirectURIs = []
        client.allowedScopes = [""]
        client.extra = ""
        try store.upsertClient(client)
        #expect(try store.client(id: "") == client)
    }

    @Test(arguments: Backend.allCases)
    func unicodeAndSubsecondTimesRoundTrip(_ backend: Backend) throws {
        let store = try backend.make().users
        let moment = t0.addingTimeInterval(0.123456)
        var user = Fixture.user("ü-1", email: "zoë@exämple.com")
        user.name = "Zoë \u{1F600} O'Brien; DROP TABLE users;--"
        user.createdAt = moment
        user.disabledAt = moment
        try store.insertUser(user)
        let read = try #require(try store.user(id: "ü-1"))
        #expect(read.name == user.name)
        #expect(read.email == "zoë@exämple.com")
        #expect(abs(read.createdAt.timeIntervalSince(moment)) < 0.000_001)
        #expect(try store.allUsers().count == 1)
    }
}
