import Foundation
import Testing
@testable import SignetServer

@Suite struct ConfigurationTests {
    @Test func emptyFileGivesDefaults() throws {
        let config = try SignetConfiguration(parsing: Data("{}".utf8))
        #expect(config.issuer == Settings.issuer.defaultValue)
        #expect(config.listen == ["127.0.0.1:8080"])
        #expect(config.lifetimes.authorizationCode == 300)
        #expect(config.lifetimes.refreshGrace == 30)
        #expect(config.masterKey == .file("master.key"))
    }

    @Test func readsEverySection() throws {
        let json = """
        {"issuer": "https://id.example.com", "listen": ["0.0.0.0:443", "[::]:443"], "data_dir": "/var/lib/signet",
         "master_key": "env:SIGNET_MASTER_KEY",
         "database": {"driver": "sqlite", "path": "/srv/signet.db"},
         "http": {"max_body_bytes": 65536, "threads": 4, "tls_certificate_file": "/etc/cert.pem", "tls_private_key": "file:/etc/key.pem"},
         "lifetimes": {"access_token": 600, "refresh_token_reuse_grace": 10},
         "keys": {"access_token_algorithm": "EdDSA"},
         "passwords": {"argon2id_ops_limit": 3}}
        """
        let config = try SignetConfiguration(parsing: Data(json.utf8))
        #expect(config.issuer == "https://id.example.com")
        #expect(config.listen.count == 2)
        #expect(config.masterKey == .environment("SIGNET_MASTER_KEY"))
        #expect(config.databaseFilePath == "/srv/signet.db")
        #expect(config.http.maxBodyBytes == 65536)
        #expect(config.http.tlsPrivateKey == .file("/etc/key.pem"))
        #expect(config.lifetimes.accessToken == 600)
        #expect(config.lifetimes.refreshGrace == 10)
        #expect(config.keys.accessTokenAlgorithm == "EdDSA")
        #expect(config.passwords.opsLimit == 3)
    }

    /// A typo in every field in turn: each is reported with its path and, where close, a suggestion.
    @Test(arguments: [
        (#"{"isuer": "https://a.example"}"#, "isuer", "did you mean \"issuer\""),
        (#"{"listn": []}"#, "listn", "did you mean \"listen\""),
        (#"{"data_dri": "x"}"#, "data_dri", "did you mean \"data_dir\""),
        (#"{"master_kye": "env:X"}"#, "master_kye", "did you mean \"master_key\""),
        (#"{"databse": {}}"#, "databse", "did you mean \"database\""),
        (#"{"database": {"pth": "x"}}"#, "database.pth", "did you mean \"path\""),
        (#"{"http": {"max_body_byte": 1}}"#, "http.max_body_byte", "did you mean \"max_body_bytes\""),
        (#"{"lifetimes": {"acess_token": 1}}"#, "lifetimes.acess_token", "did you mean \"access_token\""),
        (#"{"keys": {"id_token_alg": "RS256"}}"#, "keys.id_token_alg", "unknown setting"),
        (#"{"passwords": {"argon2id_ops": 2}}"#, "passwords.argon2id_ops", "unknown setting"),
    ])
    func typosAreReported(json: String, path: String, message: String) {
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.issues.contains { $0.path == path && $0.message.contains(message) }, "\(error)")
        }
    }

    @Test(arguments: [
        (#"{"issuer": "http://id.example.com"}"#, "issuer", "https"),
        (#"{"issuer": "https://id.example.com/"}"#, "issuer", "'/'"),
        (#"{"issuer": "https://id.example.com?x=1"}"#, "issuer", "query"),
        (#"{"issuer": 5}"#, "issuer", "must be a string"),
        (#"{"listen": "127.0.0.1:80"}"#, "listen", "array"),
        (#"{"listen": ["127.0.0.1"]}"#, "listen[0]", "HOST:PORT"),
        (#"{"master_key": "hunter2"}"#, "master_key", "reference"),
        (#"{"http": {"max_body_bytes": 1.5}}"#, "http.max_body_bytes", "whole number"),
        (#"{"http": {"threads": -1}}"#, "http.threads", "between"),
        (#"{"http": {"tls_certificate_file": "/c.pem"}}"#, "http.tls_certificate_file", "go together"),
        (#"{"lifetimes": {"authorization_code": 100000}}"#, "lifetimes.authorization_code", "between"),
        (#"{"lifetimes": {"session_idle": 9000, "session_absolute": 3600}}"#, "lifetimes.session_idle", "must not exceed"),
        (#"{"keys": {"access_token_algorithm": "none"}}"#, "keys.access_token_algorithm", "one of"),
        (#"{"keys": {"id_token_algorithm": "HS256"}}"#, "keys.id_token_algorithm", "one of"),
        (#"{"database": {"driver": "mysql"}}"#, "database.driver", "unknown driver"),
        (#"{"database": []}"#, "database", "must be an object"),
        (#"[1, 2]"#, "", "JSON object"),
        (#"{"issuer": "#, "", "not valid JSON"),
    ])
    func invalidValuesAreReported(json: String, path: String, message: String) {
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.issues.contains { $0.path == path && $0.message.contains(message) }, "\(error)")
        }
    }

    @Test func reportsEveryMistakeAtOnce() {
        let json = #"{"isuer": 1, "listen": [1], "http": {"threads": "four"}}"#
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.issues.count == 3, "\(error)")
        }
    }

    @Test func secretReferences() throws {
        #expect(try SecretReference(parsing: "env:SIGNET_KEY") == .environment("SIGNET_KEY"))
        #expect(try SecretReference(parsing: "file:/etc/key") == .file("/etc/key"))
        #expect(throws: ConfigurationIssue.self) { try SecretReference(parsing: "env:") }
        #expect(throws: ConfigurationIssue.self) { try SecretReference(parsing: "s3cret") }
        #expect(throws: ConfigurationIssue.self) { try SecretReference(parsing: "env:A-B") }
        let resolved = try SecretReference.environment("K").resolve(relativeTo: "/", environment: ["K": "abc"])
        #expect(resolved == Array("abc".utf8))
        #expect(throws: ConfigurationIssue.self) { try SecretReference.environment("K").resolve(relativeTo: "/", environment: [:]) }
    }
}

@Suite struct ConfigurationReferenceTests {
    /// docs/configuration.md is generated from Settings.swift; regenerate it with
    /// `signet config-reference > docs/configuration.md` when a setting changes.
    @Test func documentedReferenceMatchesTheCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let documented = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        #expect(documented == ConfigurationReference.markdown())
    }
}
