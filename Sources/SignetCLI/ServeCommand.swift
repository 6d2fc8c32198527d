import Foundation
import SignetHTTP
import SignetServer
import SignetStore

/// `signet serve`: runs the server until SIGTERM or SIGINT.
enum ServeCommand {
    static func run(_ raw: [String]) async throws -> Int32 {
        let arguments = try ParsedArguments(raw, options: CommonOptions.valued.union(["admin-listen"]), flags: ["demo"])
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument \(arguments.positionals[0])") }
        var configuration = try CommonOptions.configuration(arguments)
        Log.configure(level: configuration.logging.level, format: configuration.logging.format)
        configuration.listen = try configuration.listen.map(FreePort.resolve)
        // --admin-listen replaces admin.listen; "off" turns the admin listener off.
        let adminListen = arguments.all("admin-listen")
        if !adminListen.isEmpty {
            configuration.admin.listen = adminListen == ["off"] ? [] : adminListen
            for address in configuration.admin.listen {
                if let problem = SignetConfiguration.listenProblem(address) { throw UsageError("--admin-listen \(problem)") }
            }
        }
        configuration.admin.listen = try configuration.admin.listen.map(FreePort.resolve)
        if !configuration.issuerIsExplicit, let first = configuration.listen.first {
            configuration.issuer = SignetConfiguration.issuer(forListenAddress: first)
        }
        let started = DispatchTime.now()
        // Arm the signal handlers first, so a SIGTERM that arrives while starting still shuts down cleanly.
        let termination = TerminationSignal.install()
        // --demo: a mock "Google" beside Signet, so the whole federated dance runs locally.
        let demoProvider = arguments.flag("demo") ? try DemoProvider.start(&configuration) : nil
        // --demo: people can create their own account (the file's choice stands when it made one).
        if arguments.flag("demo"), configuration.accounts.signUp == .off { configuration.accounts.signUp = .open }
        let environment = try ServerEnvironment.open(configuration)
        // The anchor kept outside the database: `signet audit verify --expect-head` checks it.
        environment.storage.audit.keying.observe { head in Log.info("audit anchor \(head)") }
        let application = try SignetApplication(environment: environment)
        // The demo data is in the store before the server answers or says it is ready, so a
        // client that starts on the "issuer" line always finds the demo client.
        let demoLines = arguments.flag("demo") ? try DemoSeed.seed(environment) : []
        // Before listening, so a mail setting that cannot be used (a password variable not set)
        // stops the start instead of a running server that cannot send.
        let mailSender = try application.startMailSender()
        let server = try application.start()
        let admin: HTTPServer?
        do { admin = try application.startAdmin() } catch {
            server.stop()
            throw error
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        let scheme = configuration.http.tlsCertificateFile == nil ? "http" : "https"
        for address in server.boundAddresses {
            Output.print("signet: listening on \(scheme)://\(address)")
        }
        for address in admin?.boundAddresses ?? [] {
            Output.print("signet: admin listening on \(scheme)://\(address)")
        }
        Output.print("signet: issuer \(configuration.issuer); data in \(configuration.dataDirectory); ready in \(String(format: "%.0f", elapsed)) ms")
        demoLines.forEach(Output.print)
        if let demoProvider { DemoProvider.lines(demoProvider).forEach(Output.print) }
        let refresher = Task { await application.refreshKeysPeriodically() }
        let purge = application.startPeriodicPurge()
        _ = await termination.wait()
        Output.print("signet: shutting down")
        refresher.cancel()
        server.stop()
        admin?.stop()
        purge?.stop()
        mailSender?.stop()
        demoProvider?.stop()
        // A first start may still be generating keys: OpenSSL's exit-time cleanup must not run
        // under that thread.
        environment.keyRing.waitUntilReady()
        return 0
    }
}
