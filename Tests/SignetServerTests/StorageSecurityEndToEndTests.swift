import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// What an installation leaves on disk: private files, and signing keys only in encrypted form.
@Suite(.endToEndLimit) struct StorageSecurityEndToEndTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func dataFolderIs0700AndMasterKeyAndDatabaseAre0600() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(try Self.mode(server.dataDirectory) == 0o700)
        let masterKey = (server.dataDirectory as NSString).appendingPathComponent("master.key")
        #expect(try Self.mode(masterKey) == 0o600)
        #expect(try Self.mode(server.configuration.databaseFilePath) == 0o600)
        let text = try String(contentsOfFile: masterKey, encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(text.count == 64 && text.allSatisfy(\.isHexDigit), "the generated master key is 32 bytes of hex")
    }

    @Test func signingKeysAreStoredEncryptedUnderTheMasterKey() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let ring = server.environment.keyRing
        let records = try server.environment.storage.keys.allKeys()
        #expect(records.count == 2)
        var ders: [[UInt8]] = []
        for record in records {
            let algorithm = try #require(SignatureAlgorithm(rawValue: record.algorithm))
            let der = try ring.signer(for: algorithm).key.pkcs8DER
            ders.append(der)
            #expect(record.encryptedPrivateKey != der)
            #expect(!Self.contains(record.encryptedPrivateKey, der))
            // It is AES-GCM under the key derived from the master key, bound to the kid.
            let opened = try AESGCM.open(record.encryptedPrivateKey, key: server.environment.masterKey.keyEncryptionKey,
                                         associatedData: Array(record.id.utf8))
            #expect(opened == der)
            #expect(throws: CryptoError("authentication failed")) {
                try AESGCM.open(record.encryptedPrivateKey, key: server.environment.masterKey.keyEncryptionKey,
                                associatedData: Array("another-kid".utf8))
            }
            #expect(record.description.contains("redacted"))
        }
        // Neither the database nor its write-ahead log holds a private key in clear.
        let database = server.configuration.databaseFilePath
        for file in [database, database + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            for der in ders { #expect(!Self.contains(bytes, der), "\(file) holds a private key in clear") }
        }
        // The JWKS serves exactly the stored keys, and each kid is the RFC 7638 thumbprint of its key.
        let jwks = try JWKSet(jsonBytes: await HTTPTestClient().get(server.url(Routes.jwks)).body)
        #expect(jwks.keys.count == records.count)
        #expect(Set(jwks.keys.compactMap(\.kid)) == Set(records.map(\.id)))
        for key in jwks.keys {
            #expect(key.kid == key.thumbprint())
        }
    }

    @Test func aDifferentMasterKeyCannotOpenTheKeys() throws {
        let directory = try TemporaryDirectory(prefix: "master-key")
        defer { directory.remove() }
        var configuration = SignetConfiguration.defaults
        configuration.dataDirectory = directory.appending("data")
        let first = try SignetApplication(environment: ServerEnvironment.open(configuration))
        first.environment.keyRing.waitUntilReady()   // the first start generates its keys in the background
        let keyFile = directory.appending("data/master.key")
        try Data((String(repeating: "ab", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        // Refusing to start beats silently minting new keys that no relying party has cached.
        #expect(throws: CryptoError("authentication failed")) { try SignetApplication(environment: ServerEnvironment.open(configuration)) }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, Array(haystack[index..<(index + needle.count)]) == needle { return true }
            index += 1
        }
        return false
    }
}
