import Foundation
import SignetCore
import SignetHTTP
import SignetServer

/// A real Signet running in this process on `127.0.0.1` with a free port, a fresh temporary data
/// folder, and a manual clock, for end-to-end tests over real HTTP.
///
/// The port is picked before start (`FreePort.pick()`) so the issuer `http://127.0.0.1:PORT` is in
/// the configuration from the beginning; if another process grabs the port first, start is
/// retried with a new one. Everything goes away with `stop()`, which tests should call
/// (`defer { server.stop() }`), or use `TestServer.with { server in … }`.
///
/// Defaults differ from production only where tests need speed: two HTTP threads and the
/// cheapest Argon2id parameters allowed. Change anything with the `configure` closure (except
/// `listen`, which is always the picked port).
public final class TestServer: Sendable {
    /// The issuer, `http://127.0.0.1:PORT` unless `configure` set another.
    public let issuer: String
    /// `http://127.0.0.1:PORT` (no trailing slash).
    public let baseURL: URL
    /// The bound port.
    public let port: Int
    /// The clock every rule of this server reads; advance it to expire things.
    public let clock: ManualClock
    /// Configuration, storage, keys of the running server.
    public let environment: ServerEnvironment
    /// The application (route table, discovery).
    public let application: SignetApplication
    /// The data folder (inside a temporary directory removed by `stop()`).
    public let dataDirectory: String
    private let server: HTTPServer
    /// The admin listener (`adminListener: true`), on its own free loopback port.
    private let adminServer: HTTPServer?
    /// The admin listener's port, when it runs.
    public let adminPort: Int?
    private let purge: PeriodicPurge?
    /// The outbox sender, running when the configuration sets `mail.smtp_url` (as `signet serve`).
    public let mailSender: MailSender?
    private let temporary: TemporaryDirectory

    /// Starts a server. `clock` defaults to `TestServer.makeClock()`.
    ///
    /// With `tlsHost`, the server speaks https with a fresh self-signed certificate for that name
    /// (made by the `openssl` tool) and its issuer is `https://{tlsHost}:{port}`: a real browser
    /// mapped to 127.0.0.1 (Chromium's `--host-resolver-rules`) then sees a secure, separate site,
    /// with `Secure` and `__Host-` cookies. `baseURL` stays `https://127.0.0.1:{port}`.
    ///
    /// With `adminListener`, the admin listener (`/admin/v1`, `/metrics`, `/healthz`, `/readyz`)
    /// runs too, on a second free port (`adminPort`, `adminURL(_:)`); otherwise it is off.
    public init(clock: ManualClock = TestServer.makeClock(), tlsHost: String? = nil, adminListener: Bool = false,
                configure: (inout SignetConfiguration) throws -> Void = { _ in }) throws {
        let temporary = try TemporaryDirectory(prefix: "server")
        var configure = configure
        if let tlsHost {
            let files: (certificate: String, key: String)
            do { files = try Self.selfSignedCertificate(host: tlsHost, in: temporary) } catch {
                temporary.remove()
                throw error
            }
            let outer = configure
            configure = { configuration in
                let port = configuration.issuer.split(separator: ":").last.map(String.init) ?? ""
                configuration.issuer = "https://\(tlsHost):\(port)"
                configuration.http.tlsCertificateFile = files.certificate
                configuration.http.tlsPrivateKey = .file(files.key)
                try outer(&configuration)
            }
        }
        // The data folder itself is left for Signet to create, as it would in production.
        let dataDirectory = temporary.appending("data")
        var lastError: Error?
        for _ in 0..<8 {
            do {
                let port = try FreePort.pick()
                let started = try Self.attempt(port: port, adminPort: adminListener ? try FreePort.pick() : nil,
                                               dataDirectory: dataDirectory, clock: clock, configure: configure)
                self.port = started.server.boundPorts.first ?? port
                self.issuer = started.application.environment.configuration.issuer
                self.baseURL = started.baseURL
                self.clock = clock
                self.environment = started.application.environment
                self.application = started.application
                self.dataDirectory = dataDirectory
                self.server = started.server
                self.adminServer = started.admin
                self.adminPort = started.admin?.boundPorts.first
                self.purge = started.purge
                self.mailSender = started.mailSender
                self.temporary = temporary
                return
            } catch let error as HTTPServerError {
                lastError = error   // most likely the port was taken between pick and bind: try another
            } catch {
                temporary.remove()
                throw error
            }
        }
        temporary.remove()
        throw TestingError("the test server could not start: \(lastError.map { "\($0)" } ?? "unknown error")")
    }

    /// What `attempt` started; the environment is `application.environment`.
    private struct Started {
        let baseURL: URL
        let application: SignetApplication
        let server: HTTPServer
        let admin: HTTPServer?
        let purge: PeriodicPurge?
        let mailSender: MailSender?
    }

    private static func attempt(port: Int, adminPort: Int?, dataDirectory: String, clock: ManualClock,
                                configure: (inout SignetConfiguration) throws -> Void) throws -> Started {
        var configuration = SignetConfiguration.defaults
        configuration.dataDirectory = dataDirectory
        configuration.issuer = "http://127.0.0.1:\(port)"
        configuration.issuerIsExplicit = true
        configuration.http.threads = 2
        configuration.passwords.opsLimit = 1
        configuration.passwords.memoryKiB = 8192
        try configure(&configuration)
        configuration.listen = ["127.0.0.1:\(port)"]
        configuration.admin.listen = adminPort.map { ["127.0.0.1:\($0)"] } ?? []
        let scheme = configuration.http.tlsCertificateFile == nil ? "http" : "https"
        guard let baseURL = URL(string: "\(scheme)://127.0.0.1:\(port)") else { throw TestingError("bad port \(port)") }
        let environment = try ServerEnvironment.open(configuration, clock: clock)
        let application = try SignetApplication(environment: environment)
        environment.keyRing.waitUntilReady()
        let server = try application.start()
        let admin: HTTPServer?
        do { admin = try application.startAdmin() } catch {
            server.stop()
            throw error
        }
        // As `signet serve` does; on by default (hourly), so tests that want it set a short interval.
        let purge = application.startPeriodicPurge()
        let mailSender: MailSender?
        do { mailSender = try application.startMailSender() } catch {
            server.stop()
            admin?.stop()
            purge?.stop()
            throw error
        }
        return Started(baseURL: baseURL, application: application, server: server, admin: admin, purge: purge, mailSender: mailSender)
    }

    /// Starts a server, runs `body`, and stops the server whatever happens.
    public static func with<T>(clock: ManualClock = TestServer.makeClock(),
                               configure: (inout SignetConfiguration) throws -> Void = { _ in },
                               _ body: (TestServer) async throws -> T) async throws -> T {
        let server = try TestServer(clock: clock, configure: configure)
        defer { server.stop() }
        return try await body(server)
    }

    /// A self-signed P-256 certificate for `host` (valid one day) and its key, as PEM files.
    public static func selfSignedCertificate(host: String, in directory: TemporaryDirectory) throws -> (certificate: String, key: String) {
        let certificate = directory.appending("tls-certificate.pem")
        let key = directory.appending("tls-key.pem")
        let result = try Subprocess.runBlocking("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj", "/CN=\(host)",
            "-addext", "subjectAltName=\(isIPAddress(host) ? "IP" : "DNS"):\(host)", "-keyout", key, "-out", certificate])
        guard result.succeeded else { throw TestingError("openssl could not make a certificate for \(host): \(result)") }
        return (certificate, key)
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// A manual clock at the current wall-clock time, truncated to a whole second.
    ///
    /// Whole seconds matter: SQLite stores times in microseconds, rounded, so a key created
    /// "active now" at a fractional instant can read back a fraction of a microsecond in the
    /// future, and a clock that never moves would never reach it.
    public static func makeClock() -> ManualClock {
        ManualClock(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The configuration in force.
    public var configuration: SignetConfiguration { environment.configuration }

    /// `baseURL` + `path` (which starts with `/`), with an optional strictly encoded query.
    public func url(_ path: String, query: [(String, String)] = []) -> URL {
        var text = baseURL.absoluteString + path
        if !query.isEmpty { text += (path.contains("?") ? "&" : "?") + URLQuery.encode(query) }
        // The base is a literal loopback URL and `path` comes from the test itself.
        return URL(string: text) ?? baseURL.appendingPathComponent(path)
    }

    /// `http://127.0.0.1:ADMINPORT` + `path` on the admin listener (the public base when it is off).
    public func adminURL(_ path: String, query: [(String, String)] = []) -> URL {
        var text = "http://127.0.0.1:\(adminPort ?? port)" + path
        if !query.isEmpty { text += "?" + URLQuery.encode(query) }
        return URL(string: text) ?? baseURL.appendingPathComponent(path)
    }

    /// Stops listening, the periodic purge and the mail sender, and deletes the data folder. Safe to call more than once.
    public func stop() {
        server.stop()
        adminServer?.stop()
        purge?.stop()
        mailSender?.stop()
        temporary.remove()
    }

    deinit { stop() }
}
