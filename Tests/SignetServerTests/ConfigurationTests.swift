import Foundation
import SignetHTTP
import SignetPostgres
import SignetTesting
import Testing
@testable import SignetServer

@Suite(.endToEndLimit) struct ConfigurationTests {
    @Test func emptyFileGivesDefaults() throws {
        let config = try SignetConfiguration(parsing: Data("{}".utf8))
        #expect(config.issuer == Settings.issuer.defaultValue)
        #expect(config.listen == ["127.0.0.1:8080"])
        #expect(config.lifetimes.authorizationCode == 300)
        #expect(config.lifetimes.refreshGrace == 30)
        #expect(config.masterKey == .file("master.key"))
        #expect(config.maintenance.purgeInterval == 3600)
        #expect(config.maintenance.purgeRetention == 86_400)
    }

    /// `mfa` and a client's `mfa_required` reach the policy and the registered client.
    @Test func readsTheSecondFactorSettings() throws {
        let config = try SignetConfiguration(parsing: Data(#"""
            {"mfa": {"required": true, "attempt_limit": 7, "attempt_window": 600},
             "clients": [{"id": "bank", "redirect_uris": ["com.example.bank:/cb"], "mfa_required": true},
                         {"id": "plain", "redirect_uris": ["com.example.plain:/cb"]}]}
            """#.utf8))
        #expect(config.policy.mfaRequired && config.policy.secondFactorAttemptLimit == 7 && config.policy.secondFactorAttemptWindow == 600)
        #expect(config.clients.map(\.spec.mfaRequired) == [true, false])
        #expect(!SignetConfiguration.defaults.policy.mfaRequired)
        // Registered at start-up: the stored client says so (its record's extra).
        let server = try TestServer { $0.clients = config.clients }
        defer { server.stop() }
        #expect(try server.application.authorizationServer.clients.client(id: "bank")?.requiresMFA == true)
        #expect(try server.application.authorizationServer.clients.client(id: "plain")?.requiresMFA == false)
        #expect(throws: ConfigurationError.self) { try SignetConfiguration(parsing: Data(#"{"mfa": {"attempt_limit": 1}}"#.utf8)) }
    }

    /// `clients[].application_type`: read, checked like the admin API's, and stored at start-up,
    /// so the admin API (over HTTP) reports the configured type, not the inferred one.
    @Test func readsTheApplicationTypeAndStoresItAtStartUp() async throws {
        let temporary = try TemporaryDirectory(prefix: "apptype")
        defer { temporary.remove() }
        let secretFile = try temporary.write("sgcs_" + String(repeating: "k", count: 43) + "\n", to: "svc.secret")
        let config = try SignetConfiguration(parsing: Data(#"""
            {"clients": [{"id": "spa", "type": "public", "redirect_uris": ["https://spa.example/cb"], "application_type": "web"},
                         {"id": "cli", "redirect_uris": ["com.example.cli:/cb"]},
                         {"id": "svc", "secret": "file:\#(secretFile)", "grant_types": ["client_credentials"], "scope": "", "application_type": "service"}]}
            """#.utf8))
        #expect(config.clients.map(\.spec.applicationType) == [.web, nil, .service])
        let server = try TestServer(adminListener: true) {
            $0.clients = config.clients
        }
        let admin = try AdminFixture(server: server)
        defer { admin.stop() }
        let token = try await admin.token(["admin:clients:read"])
        for (id, type) in [("spa", "web"), ("cli", "native"), ("svc", "service")] {
            let response = try await admin.call("GET", "/admin/v1/clients/\(id)", token: token)
            #expect(response.status == 200, "\(response)")
            #expect(try response.json()["application_type"]?.stringValue == type, "\(id): \(response)")
        }
    }

    @Test func readsTheMaintenanceSettings() throws {
        let config = try SignetConfiguration(parsing: Data(#"{"maintenance": {"purge_interval": 1, "purge_retention": 0}}"#.utf8))
        #expect(config.maintenance.purgeInterval == 1)
        #expect(config.maintenance.purgeRetention == 0)
        let off = try SignetConfiguration(parsing: Data(#"{"maintenance": {"purge_interval": 0}}"#.utf8))
        #expect(off.maintenance.purgeInterval == 0)
        #expect(off.maintenance.purgeRetention == 86_400)
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
        #expect(config.keys.accessTokenAlgorithm == .edDSA)
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
        (#"{"maintenance": {"purge_intervall": 60}}"#, "maintenance.purge_intervall", "did you mean \"purge_interval\""),
        (#"{"maintainance": {}}"#, "maintainance", "did you mean \"maintenance\""),
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
        (#"{"http": {"trusted_proxies": "10.0.0.0/8"}}"#, "http.trusted_proxies", "array"),
        (#"{"http": {"trusted_proxies": ["10.0.0.0/8", "lb.internal"]}}"#, "http.trusted_proxies[1]", "\"lb.internal\" is not an IPv4 or IPv6 address or CIDR range"),
        (#"{"http": {"trusted_proxies": ["10.0.0.0/33"]}}"#, "http.trusted_proxies[0]", "prefix length"),
        (#"{"http": {"trusted_proxies": ["2001:db8::/129"]}}"#, "http.trusted_proxies[0]", "prefix length"),
        (#"{"http": {"trusted_proxies": ["10.0.0.1/8"]}}"#, "http.trusted_proxies[0]", "bits set after its prefix"),
        (#"{"http": {"trusted_proxies": [10]}}"#, "http.trusted_proxies[0]", "must be a string"),
        (#"{"http": {"per_address_connection_limit": -1}}"#, "http.per_address_connection_limit", "between"),
        (#"{"lifetimes": {"authorization_code": 100000}}"#, "lifetimes.authorization_code", "between"),
        (#"{"lifetimes": {"session_idle": 9000, "session_absolute": 3600}}"#, "lifetimes.session_idle", "must not exceed"),
        (#"{"keys": {"access_token_algorithm": "none"}}"#, "keys.access_token_algorithm", "one of"),
        (#"{"maintenance": {"purge_interval": -1}}"#, "maintenance.purge_interval", "between 0 and 604800, not -1"),
        (#"{"maintenance": {"purge_interval": 0.5}}"#, "maintenance.purge_interval", "whole number"),
        (#"{"maintenance": {"purge_retention": -1}}"#, "maintenance.purge_retention", "between 0 and 31536000"),
        (#"{"maintenance": {"purge_retention": "1d"}}"#, "maintenance.purge_retention", "whole number"),
        (#"{"maintenance": 3600}"#, "maintenance", "must be an object"),
        (#"{"keys": {"id_token_algorithm": "HS256"}}"#, "keys.id_token_algorithm", "one of"),
        (#"{"database": {"driver": "mysql"}}"#, "database.driver", "one of sqlite, postgres"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres"}}"#, "database.url", "is required"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "postgresql://u:pw@db/signet"}}"#, "database.url", "reference"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:PG", "path": "x.db"}}"#, "database.path", "SQLite only"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:PG", "max_connections": 0}}"#, "database.max_connections", "between"),
        (#"{"database": {"driver": "postgres", "url": "env:PG"}}"#, "master_key", "every node needs the same key"),
        (#"{"database": {"url": "env:PG"}}"#, "database.url", "PostgreSQL only"),
        (#"{"database": {"driver": "sqlite", "max_connections": 4}}"#, "database.max_connections", "PostgreSQL only"),
        (#"{"database": {"statement_timeout": 30}}"#, "database.statement_timeout", "PostgreSQL only"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:PG", "statement_timeout": 0}}"#, "database.statement_timeout", "between"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:PG", "statement_timeout": 601}}"#, "database.statement_timeout", "between"),
        (#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:PG", "statement_timeout": 2.5}}"#, "database.statement_timeout", "whole number"),
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

    @Test func readsTrustedProxiesAndThePerAddressConnectionLimit() throws {
        let json = #"{"http": {"trusted_proxies": ["10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "::1"], "per_address_connection_limit": 0}}"#
        let configuration = try SignetConfiguration(parsing: Data(json.utf8))
        #expect(configuration.http.trustedProxies == ["10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "::1"])
        #expect(configuration.http.perAddressConnectionLimit == 0)
        #expect(SignetConfiguration.defaults.http.trustedProxies.isEmpty)
        #expect(SignetConfiguration.defaults.http.perAddressConnectionLimit == 64)
    }

    @Test func readsAPostgresDatabase() throws {
        let json = #"{"master_key": "file:/run/secrets/signet-master-key", "database": {"driver": "postgres", "url": "env:SIGNET_DATABASE_URL", "max_connections": 4, "statement_timeout": 30}}"#
        let config = try SignetConfiguration(parsing: Data(json.utf8))
        #expect(config.database.driver == .postgres)
        #expect(config.database.url == .environment("SIGNET_DATABASE_URL"))
        #expect(config.database.maxConnections == 4)
        #expect(config.database.statementTimeoutSeconds == 30)
        let defaults = try SignetConfiguration(parsing: Data(#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:U"}}"#.utf8))
        #expect(defaults.database.maxConnections == 16)
        #expect(defaults.database.statementTimeoutSeconds == 10)
        #expect(SignetConfiguration.defaults.database.driver == .sqlite)
        #expect(SignetConfiguration.defaults.database.url == nil)
    }

    /// `http.threads` 0: 16 HTTP threads on SQLite (at least one per core), so writes waiting
    /// for one commit can share it; on PostgreSQL one per pooled connection (at least one per
    /// core), since each request's store calls hold its thread while they wait for the database.
    /// A value the operator sets is used as it is.
    @Test func httpThreadsFollowThePoolOnPostgres() throws {
        let sqlite = try SignetConfiguration(parsing: Data("{}".utf8))
        #expect(SignetApplication.httpThreadCount(sqlite, cores: 2) == 16)
        #expect(SignetApplication.httpThreadCount(sqlite, cores: 0) == 16)
        #expect(SignetApplication.httpThreadCount(sqlite, cores: 32) == 32)
        let postgres = try SignetConfiguration(parsing: Data(#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:U", "max_connections": 24}}"#.utf8))
        #expect(SignetApplication.httpThreadCount(postgres, cores: 2) == 24)
        #expect(SignetApplication.httpThreadCount(postgres, cores: 32) == 32)
        let defaultPool = try SignetConfiguration(parsing: Data(#"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:U"}}"#.utf8))
        #expect(SignetApplication.httpThreadCount(defaultPool, cores: 2) == 16)
        let explicit = try SignetConfiguration(parsing: Data(#"{"master_key": "env:K", "http": {"threads": 3}, "database": {"driver": "postgres", "url": "env:U"}}"#.utf8))
        #expect(SignetApplication.httpThreadCount(explicit, cores: 2) == 3)
    }

    /// A SQLite node keeps a read connection for each thread that may read at once: the HTTP
    /// threads of every public and admin address, the blocking-work pool and one per core.
    @Test func sqliteKeepsAReaderForEveryThreadThatMayRead() throws {
        let single = try SignetConfiguration(parsing: Data(#"{"admin": {"listen": []}}"#.utf8))
        #expect(SignetApplication.sqliteReaders(single, cores: 2) == 16 + BlockingWork.threadCount + 2)
        let withAdmin = try SignetConfiguration(parsing: Data(#"{"listen": ["127.0.0.1:1", "127.0.0.1:2"], "admin": {"listen": ["127.0.0.1:3"]}, "http": {"threads": 4}}"#.utf8))
        #expect(SignetApplication.sqliteReaders(withAdmin, cores: 2) == 4 * 3 + BlockingWork.threadCount + 2)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("signet-readers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        var configured = withAdmin
        configured.dataDirectory = data
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        guard case .sqlite(let store) = try ConfiguredStorage.open(configured, migrate: true) else {
            Issue.record("the default driver is SQLite"); return
        }
        #expect(store.readersKept == 4 * 3 + BlockingWork.threadCount + ProcessInfo.processInfo.activeProcessorCount)
    }

    /// `database.synchronous` reaches the SQLite writer the server opens: FULL unless the operator
    /// chose NORMAL; a value that is neither is refused with the setting named.
    @Test func theSynchronousSettingReachesTheSQLiteWriter() throws {
        let folder = try TemporaryDirectory(prefix: "sync")
        defer { folder.remove() }
        func level(_ database: String) throws -> Int {
            let json = #"{"data_dir": "\#(folder.path)", "database": {"path": "\#(UUID().uuidString).db"\#(database)}}"#
            guard case .sqlite(let store) = try ConfiguredStorage.open(try SignetConfiguration(parsing: Data(json.utf8)), migrate: true) else {
                Issue.record("driver sqlite did not open a SQLiteStorage")
                return -1
            }
            return try store.synchronousLevel()
        }
        #expect(SignetConfiguration.defaults.database.synchronous == .full)
        #expect(try level("") == 2)
        #expect(try level(#", "synchronous": "normal""#) == 1)
        #expect(try level(#", "synchronous": "full""#) == 2)
        #expect(throws: (any Error).self) { try SignetConfiguration(parsing: Data(#"{"database": {"synchronous": "off"}}"#.utf8)) }
    }

    /// `database.statement_timeout` reaches the store the server opens.
    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func theStatementTimeoutReachesThePostgresStore() throws {
        _ = try RealPart.postgres()
        let json = #"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:SIGNET_TEST_POSTGRES_URL", "statement_timeout": 3}}"#
        let config = try SignetConfiguration(parsing: Data(json.utf8))
        guard case .postgres(let store) = try ConfiguredStorage.open(config, migrate: false) else {
            Issue.record("driver postgres did not open a PostgresStorage")
            return
        }
        #expect(store.statementTimeout == 3)
    }

    /// With PostgreSQL a missing master key file is an error, never generated: a key made by one
    /// node would not be the others'. Nothing is created in the data folder either.
    @Test func postgresNeverGeneratesTheMasterKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgkey-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var config = try SignetConfiguration(parsing: Data(#"{"master_key": "file:master.key", "database": {"driver": "postgres", "url": "env:SIGNET_NO_SUCH_VARIABLE"}}"#.utf8))
        config.dataDirectory = directory
        do {
            _ = try ServerEnvironment.open(config)
            Issue.record("opened without a master key")
        } catch let issue as ConfigurationIssue {
            #expect(issue.path == "master_key", "\(issue)")
            #expect(issue.message.contains("never generated"), "\(issue)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    /// A `database.url` that cannot be read is reported with its path, before any connection.
    @Test func postgresReportsAnUnreadableConnectionString() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgurl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = String(repeating: "ab", count: 32)
        FileManager.default.createFile(atPath: directory + "/master.key", contents: Data(key.utf8))
        var config = try SignetConfiguration(parsing: Data(#"{"master_key": "file:master.key", "database": {"driver": "postgres", "url": "env:SIGNET_NO_SUCH_VARIABLE"}}"#.utf8))
        config.dataDirectory = directory
        do {
            _ = try ServerEnvironment.open(config)
            Issue.record("opened without a connection string")
        } catch let issue as ConfigurationIssue {
            #expect(issue.path == "database.url", "\(issue)")
            #expect(issue.message.contains("SIGNET_NO_SUCH_VARIABLE"), "\(issue)")
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

    // MARK: clients

    @Test func readsClients() throws {
        let json = """
        {"clients": [
          {"id": "native", "name": "Native", "redirect_uris": ["http://127.0.0.1/cb", "com.example.app:/cb"],
           "post_logout_redirect_uris": ["com.example.app:/out"], "first_party": true, "id_token_algorithm": "ES256",
           "access_token_lifetime": 600},
          {"id": "svc", "type": "confidential", "secret": "env:SVC_SECRET", "grant_types": ["client_credentials"],
           "scope": "api.read", "token_endpoint_auth_method": "client_secret_post"}
        ]}
        """
        let config = try SignetConfiguration(parsing: Data(json.utf8))
        #expect(config.clients.count == 2)
        let native = config.clients[0]
        #expect(native.spec.isPublic && native.spec.firstParty && native.secret == nil)
        #expect(native.spec.redirectURIs.count == 2)
        #expect(native.spec.lifetimes.accessToken == 600)
        let service = config.clients[1]
        #expect(!service.spec.isPublic)
        #expect(service.secret == .environment("SVC_SECRET"))
        #expect(service.spec.grantTypes == ["client_credentials"])
        #expect(service.spec.authenticationMethod == "client_secret_post")
    }

    @Test(arguments: [
        (#"{"clients": [{"id": "a", "redirect_uri": ["com.example.app:/cb"]}]}"#, "clients[0].redirect_uri", "did you mean \"redirect_uris\""),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "frist_party": true}]}"#, "clients[0].frist_party", "did you mean \"first_party\""),
        (#"{"client": []}"#, "client", "did you mean \"clients\""),
        (#"{"clients": {}}"#, "clients", "array"),
        (#"{"clients": ["a"]}"#, "clients[0]", "must be an object"),
        (#"{"clients": [{"name": "x"}]}"#, "clients[0].id", "required"),
        (#"{"clients": [{"id": "ok", "redirect_uris": ["com.example.app:/cb"]}, {"id": "b", "redirect_uris": ["com.example.app:/cb", "http://localhost/cb"]}]}"#, "clients[1].redirect_uris[1]", "loopback"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["https://a.example/cb#x"]}]}"#, "clients[0].redirect_uris[0]", "fragment"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["myapp:/cb"]}]}"#, "clients[0].redirect_uris[0]", "reverse domain"),
        (#"{"clients": [{"id": "a", "type": "public", "secret": "env:S", "redirect_uris": ["com.example.app:/cb"]}]}"#, "clients[0].secret", "public clients have no secret"),
        (#"{"clients": [{"id": "a", "secret": "hunter2hunter2", "grant_types": ["client_credentials"]}]}"#, "clients[0].secret", "reference"),
        (#"{"clients": [{"id": "a", "type": "confidential", "grant_types": ["client_credentials"]}]}"#, "clients[0].secret", "needs a secret"),
        (#"{"clients": [{"id": "a", "secret": "env:S", "redirect_uris": ["com.example.app:/cb"]}]}"#, "clients[0].redirect_uris[0]", "public clients"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "grant_types": ["client_credentials"]}]}"#, "clients[0].grant_types", "public clients cannot"),
        (#"{"clients": [{"id": "a", "secret": "env:S", "grant_types": []}]}"#, "clients[0].grant_types", "at least one"),
        (#"{"clients": [{"id": "a", "type": "private", "redirect_uris": ["com.example.app:/cb"]}]}"#, "clients[0].type", "public"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "first_party": "yes"}]}"#, "clients[0].first_party", "true or false"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "id_token_algorithm": "none"}]}"#, "clients[0].id_token_algorithm", "one of"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"]}, {"id": "a", "redirect_uris": ["com.example.app:/cb"]}]}"#, "clients[1].id", "another client"),
        (#"{"clients": [{"id": "a", "redirect_uris": [5]}]}"#, "clients[0].redirect_uris[0]", "must be a string"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "resources": ["https://api.example#x"]}]}"#, "clients[0].resources[0]", "RFC 8707"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "resources": ["api"]}]}"#, "clients[0].resources[0]", "absolute URI"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "resources": ["https://a.example", "https://a.example"]}]}"#, "clients[0].resources[1]", "listed twice"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "resources": "https://a.example"}]}"#, "clients[0].resources", "array"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "application_type": "desktop"}]}"#, "clients[0].application_type", "one of native, web, service, api"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "application_type": 1}]}"#, "clients[0].application_type", "must be a string"),
        (#"{"clients": [{"id": "a", "secret": "env:S", "redirect_uris": ["https://a.example/cb"], "application_type": "native"}]}"#, "clients[0].application_type", "RFC 8252 §8.4"),
        (#"{"clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "application_type": "api"}]}"#, "clients[0].application_type", "confidential client"),
        (#"{"clients": [{"id": "a", "secret": "env:S", "grant_types": ["client_credentials"], "redirect_uris": ["https://a.example/cb"], "application_type": "service"}]}"#, "clients[0].redirect_uris", "takes no redirect URIs"),
    ])
    func clientMistakesAreReported(json: String, path: String, message: String) {
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.issues.contains { $0.path == path && $0.message.contains(message) }, "\(error)")
        }
    }

    @Test func referenceListsTheClientSettings() {
        let reference = ConfigurationReference.markdown()
        for entry in Settings.client { #expect(reference.contains("`\(entry.key)`"), "\(entry.key)") }
        #expect(reference.contains("Clients"))
    }
}

@Suite(.endToEndLimit) struct ConfigurationReferenceTests {
    /// docs/configuration.md is generated from Settings.swift; regenerate it with
    /// `signet config-reference > docs/configuration.md` when a setting changes.
    @Test func documentedReferenceMatchesTheCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let documented = try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        #expect(documented == ConfigurationReference.markdown())
    }
}
