import Foundation
@testable import SignetCore
import SignetCrypto
import SignetJOSE
import SignetWire
import Testing

/// `AccessTokenVerifier`'s memory of verified tokens: a token verified once is answered from it,
/// and a string that only shares its end (its signature) with a remembered token is verified on its
/// own and refused, as are remembered tokens once they expire.
@Suite struct AccessTokenVerifierTests {
    func token(_ f: CoreFixture, subject: String) throws -> String {
        try f.server.issuer.accessToken(.init(subject: subject, clientID: "web", scope: Scope(["openid"]),
                                              audience: ["web"], grantID: nil, authTime: nil, lifetime: 60)).token
    }

    @Test func aRememberedSignatureDoesNotVouchForAnotherPayload() throws {
        let f = try CoreFixture()
        _ = try f.keyRing.ensureSigningKeys([.es256])
        let verifier = AccessTokenVerifier(server: f.server, audience: nil)
        let genuine = try token(f, subject: "alice")
        #expect(try verifier.verify(genuine).claims.sub == "alice")
        #expect(try verifier.verify(genuine).claims.sub == "alice")   // from memory

        // The same header and signature around another subject's payload: equal last 32 bytes.
        let parts = genuine.split(separator: ".").map(String.init)
        var claims = try JSONValue.parse(Base64URL.decode(parts[1]) ?? [])
        if case .object(var members) = claims { members["sub"] = .string("mallory"); claims = .object(members) }
        let forged = parts[0] + "." + Base64URL.encode(claims.serialized()) + "." + parts[2]
        #expect(forged.utf8.suffix(32).elementsEqual(genuine.utf8.suffix(32)))
        #expect(throws: (any Error).self) { try verifier.verify(forged) }
        #expect(try verifier.verify(genuine).claims.sub == "alice")

        // Remembered tokens are not answered past their expiry (60 s and the 30 s leeway).
        f.clock.advance(by: 91)
        #expect(throws: (any Error).self) { try verifier.verify(genuine) }
    }
}
