import Foundation
import SignetCrypto
import SignetJOSE
import SignetFederation
import SignetTesting
import Synchronization
import Testing

@Suite(.endToEndLimit) struct AppleClientSecretTests {
    static func pem(_ key: PrivateKey) -> String {
        "-----BEGIN PRIVATE KEY-----\n" + Data(key.pkcs8DER).base64EncodedString(options: [.lineLength64Characters])
            + "\n-----END PRIVATE KEY-----\n"
    }

    static func parts(_ jwt: String) throws -> (header: JSONValue, claims: JSONValue) {
        let pieces = jwt.split(separator: ".").map(String.init)
        #expect(pieces.count == 3)
        let header = try JSONValue.parse(try #require(Base64URL.decode(pieces[0])), maximumDepth: 4)
        let claims = try JSONValue.parse(try #require(Base64URL.decode(pieces[1])), maximumDepth: 4)
        return (header, claims)
    }

    @Test func mintsTheJWTAppleRequires() throws {
        let key = try PrivateKey.generate(.p256)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let secret = try AppleClientSecret(teamID: "TEAM", keyID: "KID1", clientID: "com.example.web", privateKeyPEM: Self.pem(key),
                                           clock: { now })
        let jwt = try secret.current()
        let (header, claims) = try Self.parts(jwt)
        #expect(header["alg"] == .string("ES256"))
        #expect(header["kid"] == .string("KID1"))
        #expect(claims["iss"] == .string("TEAM"))
        #expect(claims["sub"] == .string("com.example.web"))
        #expect(claims["aud"] == .string("https://appleid.apple.com"))
        #expect(claims["iat"] == .int(1_800_000_000))
        let exp = try #require(claims["exp"]?.intValue)
        #expect(exp > 1_800_000_000 && exp - 1_800_000_000 <= 15_777_000)
        let pieces = jwt.split(separator: ".")
        let signature = try #require(Base64URL.decode(String(pieces[2])))
        #expect(key.publicKey.verify(signature: signature, message: Array((pieces[0] + "." + pieces[1]).utf8), algorithm: .es256))
    }

    @Test func isCachedAndRenewedWhenLessThanADayRemains() throws {
        let key = try PrivateKey.generate(.p256)
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let secret = try AppleClientSecret(teamID: "T", keyID: "K", clientID: "c", privateKeyPEM: Self.pem(key),
                                           lifetime: 10 * 86_400, clock: { now.withLock { $0 } })
        let first = try secret.current()
        now.withLock { $0 = $0.addingTimeInterval(8 * 86_400) }
        #expect(try secret.current() == first)
        now.withLock { $0 = $0.addingTimeInterval(86_400 + 1) }
        let renewed = try secret.current()
        #expect(renewed != first)
        #expect(try Self.parts(renewed).claims["iat"] == .int(1_800_000_000 + 9 * 86_400 + 1))
    }

    @Test func refusesKeysThatAreNotP256PKCS8() throws {
        let rsa = try PrivateKey.generate(.rsa(bits: 2048))
        #expect(throws: FederationError.self) { _ = try AppleClientSecret(teamID: "T", keyID: "K", clientID: "c", privateKeyPEM: Self.pem(rsa)) }
        #expect(throws: FederationError.self) { _ = try AppleClientSecret(teamID: "T", keyID: "K", clientID: "c", privateKeyPEM: "not a key") }
        let wrongLabel = Self.pem(try PrivateKey.generate(.p256)).replacingOccurrences(of: "PRIVATE KEY", with: "EC PRIVATE KEY")
        #expect(throws: FederationError.self) { _ = try AppleClientSecret(teamID: "T", keyID: "K", clientID: "c", privateKeyPEM: wrongLabel) }
        #expect(!"\(try AppleClientSecret(teamID: "T", keyID: "K", clientID: "c", privateKeyPEM: Self.pem(try PrivateKey.generate(.p256))))".contains("BEGIN"))
    }
}
