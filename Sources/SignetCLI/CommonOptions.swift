import Foundation
import SignetServer

/// `--config`, `--data`, `--issuer` and `--listen`: how every subcommand finds its configuration.
enum CommonOptions {
    static let valued: Set<String> = ["config", "data", "issuer", "listen"]

    /// The configuration from `--config` (or the defaults), with the flags applied on top.
    static func configuration(_ arguments: ParsedArguments) throws -> SignetConfiguration {
        var configuration = try arguments.value("config").map { path throws(ConfigurationError) in
            try SignetConfiguration(contentsOf: path)
        } ?? SignetConfiguration.defaults
        if let data = arguments.value("data") {
            configuration.dataDirectory = data
        } else if let config = arguments.value("config"), !configuration.dataDirectory.hasPrefix("/") {
            // Relative data folders in a file are relative to the file, not the working directory.
            let base = (config as NSString).deletingLastPathComponent
            configuration.dataDirectory = ((base.isEmpty ? "." : base) as NSString).appendingPathComponent(configuration.dataDirectory)
        }
        if let issuer = arguments.value("issuer") {
            if let problem = SignetConfiguration.issuerProblem(issuer) { throw UsageError("--issuer \(problem)") }
            configuration.issuer = issuer
            configuration.issuerIsExplicit = true
        }
        let listen = arguments.all("listen")
        if !listen.isEmpty {
            for address in listen {
                if let problem = SignetConfiguration.listenProblem(address) { throw UsageError("--listen \(problem)") }
            }
            configuration.listen = listen
        }
        return configuration
    }
}
