import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import SignetStore
import Testing

/// Signing-key rotation as relying parties see it over HTTP: pre-publication, switch-over at
/// activation, retention of the old key, then its removal.
@Suite(.endToEndLimit) struct KeyRotationEndToEndTests {
    static func servedKids(_ server: TestServer, _ client: HTTPTestClient) async throws -> [String] {
        let keys = try await client.get(server.url(Routes.jwks)).json()["keys"]?.arrayValue ?? []
        return keys.compactMap { $0["kid"]?.stringValue }
    }

    @Test func rotationPrepublishesSwitchesAndRetiresOnSchedule() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = HTTPTestClient()
        let ring = server.environment.keyRing
        let oldKid = try ring.signer(for: .es256).keyID
        let rsaKid = try ring.signer(for: .rs256).keyID
        #expect(try await Self.servedKids(server, client).contains(oldKid))

        let next = try ring.rotate(.es256, prepublishSeconds: 3600)
        try ring.reload()   // `signet serve` does this every 5 s
        // Published at once, but not signing yet: caches see the key before any token names it.
        var kids = try await Self.servedKids(server, client)
        #expect(kids.contains(next.id))
        #expect(kids.contains(oldKid))
        #expect(try ring.signer(for: .es256).keyID == oldKid)
        server.clock.advance(by: 3599)
        #expect(try ring.signer(for: .es256).keyID == oldKid)
        server.clock.advance(by: 2)
        let signer = try ring.signer(for: .es256)
        #expect(signer.keyID == next.id)
        #expect(try ring.signer(for: .rs256).keyID == rsaKid)   // other algorithms untouched

        // A token from the new key verifies with the served JWKS; the old key is still served.
        let jwks = try await client.get(server.url(Routes.jwks)).body
        var claims = JWTClaims()
        claims.iss = server.issuer
        claims.exp = server.clock.now.addingTimeInterval(60)
        let token = try signer.signJWT(claims)
        let now = server.clock.now
        let verifier = try JWTVerifier(keys: JWKSet(jsonBytes: jwks).verificationKeys(), policy: VerificationPolicy(clock: { now }))
        #expect(try verifier.verify(token).keyID == next.id)
        kids = try await Self.servedKids(server, client)
        #expect(kids.contains(oldKid))

        // Retention = the longest token lifetime; after it the old key leaves the JWKS.
        let retention = TimeInterval(ring.retentionSeconds)
        #expect(retention == TimeInterval(server.configuration.longestSignedTokenLifetime))
        server.clock.advance(by: retention - 10)
        #expect(try await Self.servedKids(server, client).contains(oldKid))
        server.clock.advance(by: 20)
        kids = try await Self.servedKids(server, client)
        #expect(!kids.contains(oldKid))
        #expect(kids.contains(next.id))
        #expect(kids.contains(rsaKid))
    }

    @Test func retiringTheOnlyES256KeyCreatesAReplacementThatSignsAtOnce() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = HTTPTestClient()
        let ring = server.environment.keyRing
        let oldKid = try ring.signer(for: .es256).keyID
        let replacement = try #require(try ring.retire(keyID: oldKid))
        #expect(replacement.algorithm == "ES256")
        #expect(replacement.id != oldKid)
        #expect(try ring.signer(for: .es256).keyID == replacement.id)
        let kids = try await Self.servedKids(server, client)
        #expect(kids.contains(oldKid))          // still published for tokens it signed
        #expect(kids.contains(replacement.id))
        server.clock.advance(by: TimeInterval(ring.retentionSeconds) + 1)
        #expect(!(try await Self.servedKids(server, client)).contains(oldKid))
    }

    @Test func retiringAnUnknownKidFails() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(throws: StoreError.notFound) { try server.environment.keyRing.retire(keyID: "no-such-kid") }
    }
}
