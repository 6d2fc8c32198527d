import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetStore
import SignetWire

/// The running authorization server: the environment, the route table (`routeTable()`), and the HTTP listeners.
public final class SignetApplication: Sendable {
    /// Configuration, storage, keys and clock.
    public let environment: ServerEnvironment
    /// The issuer, as configured.
    public let issuer: String
    /// The authorization server logic.
    public let authorizationServer: AuthorizationServer
    /// The upstream connections (federated sign-in).
    public let federation: Federation
    /// `POST /token` and its grant registry (also discovery's `grant_types_supported`).
    public let tokenEndpoint: TokenEndpoint
    /// The brand of the pages and the mail, with its stylesheet and logo file (`branding`).
    let brandAssets: BrandAssets
    let discovery: [UInt8]
    /// The metrics served at the admin listener's `/metrics`.
    public let metrics: ServerMetrics
    /// Home-realm discovery over the organizations' domain claims and the configuration.
    let domainGovernance: DomainGovernance
    /// The one sign-in policy of every way in (browser, headless and native).
    let signInGate: SignInGate

    /// Builds the application; makes sure signing keys exist. Everything that can refuse the
    /// configuration runs first: key generation (a background thread) starts only once nothing
    /// can throw any more, so a refused start leaves no thread working behind it.
    public init(environment: ServerEnvironment) throws {
        self.environment = environment
        self.issuer = environment.configuration.issuer
        brandAssets = try BrandAssets(configuration: environment.configuration)
        let metrics = ServerMetrics()
        self.metrics = metrics
        authorizationServer = AuthorizationServer(policy: environment.policy, storage: environment.storage,
                                                  masterKey: environment.masterKey, keyRing: environment.keyRing,
                                                  clock: environment.clock, random: environment.random,
                                                  auditObserver: { metrics.auditEvent($0) }, auditContext: AuditContext.ofRequest,
                                                  builtInClients: Self.consoleClients(environment))
        federation = try Federation(configuration: environment.configuration, clock: { [clock = environment.clock] in clock.now })
        domainGovernance = DomainGovernance(claims: environment.makeDomainClaims(auditor: authorizationServer.auditor),
                                            federation: federation, users: environment.storage.users,
                                            auditor: authorizationServer.auditor, clock: environment.clock,
                                            addMember: { [organizations = environment.storage.organizations, clock = environment.clock] organization, user, roles in
                                                try organizations.addMember(organizationID: organization, userID: user, roles: roles, at: clock.now)
                                            })
        signInGate = SignInGate(server: authorizationServer, realms: domainGovernance,
                                requireVerifiedEmail: environment.configuration.accounts.requireVerifiedEmail)
        tokenEndpoint = TokenEndpoint(server: authorizationServer,
                                      nativeSignIn: NativeSignInParts(
                                        verifier: NativeSignInVerifier(connections: environment.configuration.connections.map(\.connection),
                                                                       clock: environment.clock),
                                        gate: signInGate))
        try Self.registerConfiguredClients(environment, server: authorizationServer)
        discovery = DiscoveryDocument.build(issuer: issuer,
                                            signingAlgorithms: environment.requiredAlgorithms.map(\.rawValue),
                                            grantTypes: tokenEndpoint.grantTypes.map(\.rawValue))
        metrics.addGauges(environment: environment)
        metrics.observeUpstreams(federation)
        metrics.reportLostAuditEvents()
        try environment.keyRing.prepare(environment.requiredAlgorithms)
    }

    /// The brand of the pages and the mail (`branding`): what `AccountMail` is rendered with.
    public var brand: Brand { brandAssets.brand }

    /// The HTTP configuration for the listeners in the configuration (or `listen` overrides).
    public func httpConfiguration(listen: [String]? = nil) throws -> HTTPServerConfiguration {
        let config = environment.configuration
        let addresses = try (listen ?? config.listen).map { try ListenAddress($0) }
        var tls: HTTPServerConfiguration.TLS?
        if let certificate = config.http.tlsCertificateFile, let key = config.http.tlsPrivateKey,
           let keyPath = key.resolvedPath(relativeTo: config.dataDirectory) {
            tls = .init(certificatePath: certificate, privateKeyPath: keyPath)
        }
        return HTTPServerConfiguration(listen: addresses, maxHeaderBytes: config.http.maxHeaderBytes,
                                       maxBodyBytes: config.http.maxBodyBytes, connectionLimit: config.http.connectionLimit,
                                       perAddressConnectionLimit: config.http.perAddressConnectionLimit,
                                       trustedProxies: try TrustedProxies(config.http.trustedProxies),
                                       connectionTimeoutSeconds: config.http.connectionTimeoutSeconds,
                                       threadCount: Self.httpThreadCount(config, cores: ProcessInfo.processInfo.activeProcessorCount),
                                       tls: tls, accessLog: config.log.requests ? Log.request : nil)
    }

    /// HTTP worker threads per listen address: `http.threads` when set; otherwise, on SQLite,
    /// `sqliteThreads` (at least one per core), and on PostgreSQL one per pooled connection
    /// (`database.max_connections`, at least one per core). A request's store calls run on the
    /// thread that serves it, so a node has at most this many requests at the database. On
    /// SQLite a write waits for the group commit that holds it (`SQLiteWriter`): the requests
    /// whose writes queue during one commit's sync share the next, so a group can only be as
    /// large as the threads waiting, and a waiting thread sleeps (no CPU, a mostly untouched
    /// stack). On PostgreSQL each statement waits for a round trip.
    static func httpThreadCount(_ config: SignetConfiguration, cores: Int) -> Int {
        if config.http.threads > 0 { return config.http.threads }
        let perCore = max(1, cores)
        switch config.database.driver {
        case .sqlite: return max(perCore, sqliteThreads)
        case .postgres: return max(perCore, config.database.maxConnections)
        }
    }

    /// The default HTTP threads on SQLite: as many requests in flight as PostgreSQL's default
    /// pool (`database.max_connections` 16). Measured on 2 cores (bench/README.md, "Session 10
    /// (gc)"): with 2 threads a group commit held at most 2 rotations; with 16 the syncs per
    /// rotation fell to a quarter, with `synchronous` NORMAL the CPU per rotation did not
    /// change, and 32 gained nothing over 16.
    static let sqliteThreads = 16

    /// The read connections a SQLite node keeps open: one for each thread that may read at once,
    /// that is the HTTP threads of every listen address (the public and the admin listeners), the
    /// blocking-work pool that async handlers hand their store calls to, and one per core for the
    /// background tasks. A reader beyond the pool's size is opened for one read and closed, which
    /// costs a parse of the schema: with 8 kept for 16 threads, a userinfo load opened 190–290
    /// readers a second, made 1.7 futex calls per response instead of 0.5, and its p99 was
    /// 1.4–2.9 ms instead of 0.9–2.0 ms (bench/README.md, "Session 19 (readers)").
    static func sqliteReaders(_ config: SignetConfiguration, cores: Int) -> Int {
        let listeners = max(1, config.listen.count) + config.admin.listen.count
        return httpThreadCount(config, cores: cores) * listeners + BlockingWork.threadCount + max(1, cores)
    }

    /// Starts the listeners and the background key refresher.
    public func start(listen: [String]? = nil) throws -> HTTPServer {
        let server = HTTPServer(configuration: try httpConfiguration(listen: listen), router: makeRouter())
        try server.start()
        return server
    }

    /// Starts the admin listener on `admin.listen` (or `listen`), or returns nil when there are
    /// no admin addresses: the admin API, `/metrics`, `/healthz` and `/readyz`.
    public func startAdmin(listen: [String]? = nil) throws -> HTTPServer? {
        let addresses = listen ?? environment.configuration.admin.listen
        guard !addresses.isEmpty else { return nil }
        let server = HTTPServer(configuration: try httpConfiguration(listen: addresses),
                                router: makeRouter(adminRouteTable(), listener: "admin"))
        try server.start()
        return server
    }

    /// Re-reads signing keys every few seconds, so rotation by the CLI or another node shows up in
    /// the JWKS and the signer without a restart. Runs until the task is cancelled.
    public func refreshKeysPeriodically(every seconds: UInt64 = 5) async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: seconds * 1_000_000_000)
            do { try environment.keyRing.reload() } catch { Log.error("key reload failed: \(error)") }
        }
    }

    /// `GET /healthz`: liveness and readiness.
    static func healthResponse() -> HTTPResponse {
        var response = HTTPResponse.json(Array(#"{"status":"ok"}"#.utf8))
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    static func publicJSON(_ body: [UInt8], maxAge: Int, type: String = "application/json") -> HTTPResponse {
        var response = HTTPResponse.json(body)
        response.headers.set("Content-Type", type)
        response.headers.set("Cache-Control", "public, max-age=\(maxAge)")
        response.headers.set("Access-Control-Allow-Origin", "*")
        return response
    }
}
