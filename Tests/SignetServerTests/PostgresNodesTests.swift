import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetPostgres
import SignetServer
import SignetTesting
import Testing

/// Two real `signet serve` processes on one PostgreSQL database, as behind a load balancer: the
/// same issuer and master key, nothing kept locally. Whatever one node or the CLI writes, the
/// other node honours. Runs when `SIGNET_TEST_POSTGRES_URL` names a server, and fails under CI without one
/// (scripts/run-tests.sh starts one).
@Suite(.serialized, .endToEndLimit) struct PostgresNodesTests {
    /// The issuer both nodes share: the load balancer's address, not either node's.
    static let issuer = "http://127.0.0.1:9443"
    static let email = "alice@example.com"
    static let password = "correct horse battery"
    static let callback = "http://127.0.0.1:49152/callback"   // any port matches (RFC 8252 §7.3)

    /// A fresh database, its connection string and master key in files, and a signet.json naming them.
    struct Cluster {
        let database: PostgresStorage   // dropped when released
        let directory: TemporaryDirectory
        let configFile: String

        init(admin: String) throws {
            database = try PostgresStorage.temporary(adminConninfo: admin)
            let name = try #require(database.temporaryDatabaseName)
            directory = try TemporaryDirectory(prefix: "pgnodes")
            let urlFile = try directory.write(PostgresNodesTests.conninfo(admin, database: name), to: "database.conninfo")
            let keyFile = try directory.write(MasterKey.generateHex(random: SystemRandomSource()), to: "master.key")
            let config: JSONValue = .object([
                "issuer": .string(PostgresNodesTests.issuer),
                "master_key": .string("file:\(keyFile)"),
                "database": .object(["driver": .string("postgres"), "url": .string("file:\(urlFile)"), "max_connections": .int(4)]),
                // No grace: the old refresh token presented again is reuse at once.
                "lifetimes": .object(["refresh_token_reuse_grace": .int(0)]),
            ])
            configFile = try directory.write(config.serializedString(), to: "signet.json")
        }

        /// Runs an admin command against the shared database.
        func signet(_ arguments: [String], stdin: String? = nil) async throws -> SubprocessResult {
            try await SignetBinary.run(arguments + ["--config", configFile], stdin: stdin.map { Array($0.utf8) })
        }

        /// A node with a data folder of its own (which it leaves empty).
        func launchNode() async throws -> BinaryServer {
            try await TestServer.launchBinary(arguments: ["--config", configFile])
        }
    }

    /// `admin` pointed at `database` (a keyword string gets `dbname=`, a URL a new path).
    static func conninfo(_ admin: String, database: String) -> String {
        if admin.hasPrefix("postgres://") || admin.hasPrefix("postgresql://"), var url = URLComponents(string: admin) {
            url.path = "/" + database
            return url.string ?? admin
        }
        return admin + " dbname=" + database
    }

    static func authorizeURL(_ node: BinaryServer, client: String = "native", pkce: PKCEPair) -> URL {
        var url = URLComponents(url: node.url(Routes.authorize), resolvingAgainstBaseURL: false)
        url?.queryItems = [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: client),
            URLQueryItem(name: "redirect_uri", value: callback),
            URLQueryItem(name: "scope", value: "openid profile email offline_access"),
            URLQueryItem(name: "state", value: "st-1"), URLQueryItem(name: "nonce", value: "nonce-1"),
            URLQueryItem(name: "code_challenge", value: pkce.challenge), URLQueryItem(name: "code_challenge_method", value: "S256")]
        return url?.url ?? node.baseURL
    }

    static func token(_ node: BinaryServer, _ form: [(String, String)]) async throws -> TestResponse {
        try await HTTPTestClient().post(node.url(Routes.token), form: form)
    }

    static func redeem(_ node: BinaryServer, code: String, pkce: PKCEPair) async throws -> TestResponse {
        try await token(node, [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callback),
                               ("client_id", "native"), ("code_verifier", pkce.verifier)])
    }

    static func refresh(_ node: BinaryServer, _ refreshToken: String) async throws -> TestResponse {
        try await token(node, [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "native")])
    }

    static func kids(_ node: BinaryServer) async throws -> [String] {
        let keys = try await HTTPTestClient().get(node.url(Routes.jwks)).json()["keys"]?.arrayValue ?? []
        return keys.compactMap { $0["kid"]?.stringValue }
    }

    /// Polls `condition` every 100 ms, at most `attempts` times (a cache policy is waited for,
    /// not timed).
    static func eventually(attempts: Int = 300, _ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<attempts {
            if try await condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func twoNodesShareUsersClientsCodesRefreshFamiliesAndKeys() async throws {
        let cluster = try Cluster(admin: try RealPart.postgres())
        defer { cluster.directory.remove() }

        // The admin commands act on the shared database.
        let migrate = try await cluster.signet(["migrate"])
        #expect(migrate.succeeded, "\(migrate)")
        #expect(migrate.stdout.contains("up to date"), "\(migrate)")
        let check = try await cluster.signet(["check-config", cluster.configFile])
        #expect(check.succeeded, "\(check)")
        let user = try await cluster.signet(["users", "add", Self.email, "--password-stdin"], stdin: Self.password + "\n")
        try #require(user.succeeded, "\(user)")
        let subject = user.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let client = try await cluster.signet(["clients", "add", "native", "--public", "--first-party", "--redirect-uri",
                                               "http://127.0.0.1/callback", "--scope", "openid profile email offline_access"])
        try #require(client.succeeded, "\(client)")

        // Both nodes start together on an empty key table: exactly one key per algorithm is made
        // (the store inserts a first key only if none can sign), so either node's tokens verify
        // against the other's JWKS at once.
        async let startA = cluster.launchNode()
        async let startB = cluster.launchNode()
        let (nodeA, nodeB) = try await (startA, startB)
        let keys = try await cluster.signet(["keys", "list"])
        try #require(keys.succeeded, "\(keys)")
        #expect(keys.stdout.split(separator: "\n").count == 3, "\(keys)")   // header, RS256, ES256
        #expect(nodeA.port != nodeB.port)
        #expect(nodeA.issuer == Self.issuer && nodeB.issuer == Self.issuer)
        // Nothing kept on the nodes: their data folders stay empty (or absent).
        for node in [nodeA, nodeB] {
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: node.dataDirectory)) ?? []).isEmpty)
        }

        // Sign in on A; redeem the code on B.
        let browser = FormBrowser()
        let pkce = PKCEPair.generate()
        let page = try await browser.open(Self.authorizeURL(nodeA, pkce: pkce))
        #expect(page.status == 200)
        #expect(page.url.path == Routes.signIn)
        let signedIn = try await browser.submit(formWithAction: Routes.signIn, fields: ["email": Self.email, "password": Self.password])
        let code = try signedIn.requireRedirect().query().single("code")
        let redeemed = try await Self.redeem(nodeB, code: code, pkce: pkce)
        #expect(redeemed.status == 200, "\(redeemed)")
        let tokens = try redeemed.json()
        let refresh1 = try #require(tokens["refresh_token"]?.stringValue)
        // Single use across nodes: the same code on A is refused, and the replay revokes what
        // the code gave (RFC 6749 §4.1.2), on B too.
        let again = try await Self.redeem(nodeA, code: code, pkce: pkce)
        #expect(again.status == 400)
        #expect(try again.json()["error"] == .string("invalid_grant"))
        let afterReplay = try await Self.refresh(nodeB, refresh1)
        #expect(afterReplay.status == 400, "\(afterReplay)")

        // The session made on A is honoured by B: no sign-in page, straight back with a code;
        // that code is redeemed on A, whose ID token B's JWKS verifies.
        let pkce2 = PKCEPair.generate()
        let sso = try await browser.open(Self.authorizeURL(nodeB, pkce: pkce2))
        let code2 = try sso.requireRedirect().query().single("code")
        let fromA = try await Self.redeem(nodeA, code: code2, pkce: pkce2)
        #expect(fromA.status == 200, "\(fromA)")
        let idToken = try #require(try fromA.json()["id_token"]?.stringValue)
        let refresh2 = try #require(try fromA.json()["refresh_token"]?.stringValue)
        let jwksB = try await HTTPTestClient().get(nodeB.url(Routes.jwks)).body
        let verifier = try JWTVerifier(keys: JWKSet(jsonBytes: jwksB).verificationKeys(),
                                       policy: VerificationPolicy(issuer: Self.issuer, audience: "native"))
        let verified = try verifier.verify(idToken)
        #expect(verified.claims.sub == subject)

        // No sticky sessions needed: a sign-in page served by B, posted to A (the pending request
        // is in the database; the CSRF binding is keyed by the shared master key).
        let other = FormBrowser()
        let pkce4 = PKCEPair.generate()
        let pageB = try await other.open(Self.authorizeURL(nodeB, pkce: pkce4))
        let formB = try #require(pageB.forms.first)
        let toA = HTMLForm(action: nodeA.url(Routes.signIn), rawAction: Routes.signIn, method: formB.method, id: formB.id,
                           controls: formB.controls)
        let crossed = try await other.submit(toA, fields: ["email": Self.email, "password": Self.password])
        let code4 = try crossed.requireRedirect().query().single("code")
        #expect(try await Self.redeem(nodeB, code: code4, pkce: pkce4).status == 200)

        // Rotate on B; the old token presented on A after the (zero) grace is reuse: the family
        // is revoked on both nodes.
        let rotated = try await Self.refresh(nodeB, refresh2)
        #expect(rotated.status == 200, "\(rotated)")
        let refresh3 = try #require(try rotated.json()["refresh_token"]?.stringValue)
        let reused = try await Self.refresh(nodeA, refresh2)
        #expect(reused.status == 400)
        #expect(try reused.json()["error"] == .string("invalid_grant"))
        for node in [nodeA, nodeB] {
            let revoked = try await Self.refresh(node, refresh3)
            #expect(revoked.status == 400, "\(revoked)")
            #expect(try revoked.json()["error"] == .string("invalid_grant"))
        }

        // A client the CLI adds while both run: unknown to both first, then accepted by both
        // once their client caches see the database's generation move.
        let pkce3 = PKCEPair.generate()
        let http = HTTPTestClient()
        for node in [nodeA, nodeB] {
            #expect(try await http.get(Self.authorizeURL(node, client: "late", pkce: pkce3)).status == 400)
        }
        let late = try await cluster.signet(["clients", "add", "late", "--public", "--redirect-uri", "http://127.0.0.1/callback",
                                             "--scope", "openid"])
        try #require(late.succeeded, "\(late)")
        for node in [nodeA, nodeB] {
            let accepted = try await Self.eventually {
                let status = try await http.get(Self.authorizeURL(node, client: "late", pkce: pkce3)).status
                return status == 303 || status == 200
            }
            #expect(accepted, "node on port \(node.port) never accepted the new client")
        }

        // `signet keys rotate`: both nodes publish the new key once they reload keys (every 5 s).
        let rotate = try await cluster.signet(["keys", "rotate", "--algorithm", "ES256"])
        try #require(rotate.succeeded, "\(rotate)")
        let list = try await cluster.signet(["keys", "list"])
        let rows: [[String]] = list.stdout.split(separator: "\n").map { line in line.split(separator: " ").map(String.init) }
        let nextRow: [String]? = rows.first { row in row.count >= 3 && row[2] == "next" }
        let nextKid = try #require(nextRow?.first, "\(list)")
        for node in [nodeA, nodeB] {
            let published = try await Self.eventually { try await Self.kids(node).contains(nextKid) }
            #expect(published, "node on port \(node.port) never published the rotated key")
        }

        for node in [nodeA, nodeB] {
            let (result, forced) = await node.stop()
            #expect(!forced)
            #expect(result.succeeded, "\(result)")
        }
    }

    /// A node refuses to start when its database does not exist: libpq's reason is printed, the
    /// connection string (and its password) is not.
    @Test(.enabled(if: RealPart.postgres.canRun, RealPart.postgres.skipComment))
    func serveRefusesADatabaseThatDoesNotExist() async throws {
        let directory = try TemporaryDirectory(prefix: "pgmissing")
        defer { directory.remove() }
        let admin = try RealPart.postgres()
        var conninfo = Self.conninfo(admin, database: "signet_no_such_database")
        if !conninfo.hasPrefix("postgres") { conninfo += " password=pw-never-printed" }   // unused on a trusted socket
        let urlFile = try directory.write(conninfo, to: "database.conninfo")
        let keyFile = try directory.write(MasterKey.generateHex(random: SystemRandomSource()), to: "master.key")
        let file = try directory.write(#"{"master_key": "file:\#(keyFile)", "database": {"driver": "postgres", "url": "file:\#(urlFile)"}}"#,
                                       to: "signet.json")
        let result = try await SignetBinary.run(["serve", "--config", file, "--listen", "127.0.0.1:0"], timeoutSeconds: 30)
        #expect(!result.succeeded, "\(result)")
        #expect(result.stderr.contains("signet_no_such_database"), "\(result)")   // libpq names the database
        #expect(!result.stdout.contains("listening on"))
        #expect(!(result.stdout + result.stderr).contains("pw-never-printed"))
    }
}
