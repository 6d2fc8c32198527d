import Foundation
import SignetCore

extension SignetConfiguration {
    /// Reads a configuration file. Every mistake is reported, not just the first.
    public init(contentsOf path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(issues: [ConfigurationIssue(path: "", message: "cannot read configuration file \(path)")])
        }
        try self.init(parsing: data)
    }

    /// Parses configuration JSON. Unknown keys, wrong types and invalid values are all reported.
    public init(parsing data: Data) throws(ConfigurationError) {
        let root: ConfigValue
        do {
            root = try JSONDecoder().decode(ConfigValue.self, from: data)
        } catch {
            throw ConfigurationError(issues: [ConfigurationIssue(path: "", message: "the file is not valid JSON (\(ConfigReader.describe(error)))")])
        }
        let reader = ConfigReader()
        self.init(uncheckedDefaults: ())
        guard case .object(let top) = root else {
            throw ConfigurationError(issues: [ConfigurationIssue(path: "", message: "the file must hold a JSON object")])
        }
        let section = ConfigSection(reader: reader, path: "", values: top)
        issuerIsExplicit = top["issuer"] != nil
        // Every group writes every one of its settings: the declared default when a key (or its
        // whole section) is absent, so no default is written anywhere but in `Settings`.
        for group in Settings.sections {
            guard let key = group.key else {
                group.readSettings(section, into: &self)
                continue
            }
            group.read(section.section(key) ?? ConfigSection(reader: reader, path: key, values: [:]), into: &self)
        }
        clients = ConfigSection.clients(top["clients"], reader: reader, refreshFamilyLifetime: lifetimes.refreshFamily)
        connections = ConfigSection.connections(top["connections"], reader: reader)
        Settings.topLevel.finish(section, sections: Settings.sections.compactMap(\.key) + ["clients", "connections"])
        validate(reader, given: top)
        if !reader.issues.isEmpty { throw ConfigurationError(issues: reader.issues) }
    }

    /// Cross-field rules that no single setting can check; `given` is the file's top-level object.
    private func validate(_ reader: ConfigReader, given top: [String: ConfigValue]) {
        if listen.isEmpty && !reader.issues.contains(where: { $0.path.hasPrefix("listen") }) {
            reader.report("listen", "at least one listen address is needed")
        }
        if lifetimes.sessionIdle > lifetimes.sessionAbsolute {
            reader.report("lifetimes.session_idle", "must not exceed lifetimes.session_absolute")
        }
        if lifetimes.refreshToken > lifetimes.refreshFamily {
            reader.report("lifetimes.refresh_token", "must not exceed lifetimes.refresh_token_absolute")
        }
        if (http.tlsCertificateFile == nil) != (http.tlsPrivateKey == nil) {
            reader.report("http.tls_certificate_file", "tls_certificate_file and tls_private_key go together")
        }
        validateMail(reader)
        validateBranding(reader)
        // After a driver typo the rest of `database` cannot be judged.
        if case .object(let database)? = top["database"], !reader.issues.contains(where: { $0.path == "database.driver" }) {
            validateDatabase(given: Set(database.keys), masterKeyIsExplicit: top["master_key"] != nil, reader: reader)
        }
    }

    /// The rules between the mail settings: a sender with a server, a password with a user name.
    private func validateMail(_ reader: ConfigReader) {
        if mail.smtpURL != nil && mail.from == nil && !reader.issues.contains(where: { $0.path == "mail.from" }) {
            reader.report("mail.from", "is required with mail.smtp_url: the sender address of every message")
        }
        if (mail.username == nil) != (mail.password == nil) {
            reader.report("mail.username", "mail.username and mail.password go together")
        }
    }

    /// The rules between the database settings: each backend's own settings only, a connection
    /// string for PostgreSQL, and one master key shared by every node.
    private func validateDatabase(given: Set<String>, masterKeyIsExplicit: Bool, reader: ConfigReader) {
        switch database.driver {
        case .postgres:
            if !given.contains("url") {
                reader.report("database.url", "is required with driver \"postgres\": \"env:NAME\" or \"file:PATH\" holding the connection string")
            }
            if given.contains("path") { reader.report("database.path", "is for SQLite only; PostgreSQL uses database.url") }
            // Several nodes share the database, so they must share the key that decrypts its
            // signing keys and keys its token hashes: a key generated per node would split them.
            if !masterKeyIsExplicit {
                reader.report("master_key", "must be set explicitly (\"env:NAME\" or \"file:PATH\") with driver \"postgres\": every node needs the same key, so none is generated")
            }
        case .sqlite:
            for key in ["url", "max_connections", "statement_timeout"] where given.contains(key) {
                reader.report("database.\(key)", "is for PostgreSQL only (driver \"postgres\")")
            }
        }
    }

    /// The issuer a listener implies when none is configured: `http://HOST:PORT`, with wildcard
    /// addresses replaced by loopback.
    public static func issuer(forListenAddress address: String) -> String {
        var host = address
        if let colon = address.lastIndex(of: ":") { host = String(address[..<colon]) }
        let port = address.split(separator: ":").last.map(String.init) ?? "80"
        switch host {
        case "0.0.0.0", "": host = "127.0.0.1"
        case "[::]": host = "[::1]"
        default: break
        }
        return "http://\(host):\(port)"
    }

    /// Why an issuer is unusable, or nil. OpenID Connect Discovery §3: https, no query or fragment.
    public static func issuerProblem(_ issuer: String) -> String? {
        guard let url = URLComponents(string: issuer), let scheme = url.scheme, let host = url.host, !host.isEmpty else {
            return "must be an absolute URL such as https://id.example.com"
        }
        if url.query != nil || url.fragment != nil { return "must not have a query or fragment" }
        if issuer.hasSuffix("/") { return "must not end with '/'" }
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host)
        if scheme == "https" { return nil }
        if scheme == "http" && loopback { return nil }
        return "must use https (http is allowed only on a loopback address for local use)"
    }

    /// Why a listen address is unusable, or nil.
    public static func listenProblem(_ address: String) -> String? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (0...65535).contains(port) else {
            return "must be HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080"
        }
        let host = address[..<colon]
        if host.isEmpty { return "needs a host, such as 127.0.0.1 or 0.0.0.0" }
        return nil
    }
}

/// Collects issues while a configuration is read.
final class ConfigReader {
    private(set) var issues: [ConfigurationIssue] = []

    func report(_ path: String, _ message: String) {
        issues.append(ConfigurationIssue(path: path, message: message))
    }

    static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
        }
        return "unreadable"
    }
}

/// One JSON object of the configuration, read key by key.
struct ConfigSection {
    let reader: ConfigReader
    let prefix: String
    let values: [String: ConfigValue]

    init(reader: ConfigReader, path: String, values: [String: ConfigValue]) {
        self.reader = reader
        self.prefix = path
        self.values = values
    }

    func path(_ key: String) -> String { prefix.isEmpty ? key : "\(prefix).\(key)" }

    func section(_ key: String) -> ConfigSection? {
        guard let value = values[key] else { return nil }
        guard case .object(let object) = value else {
            reader.report(path(key), "must be an object, not \(value.typeName)")
            return nil
        }
        return ConfigSection(reader: reader, path: path(key), values: object)
    }

    /// Reports every key that is not a known setting or section, with a suggestion for typos.
    func finish(known: [String], sections: [String] = []) {
        let names = known + sections
        for key in values.keys.sorted() where !names.contains(key) {
            var message = "unknown setting"
            if let guess = ConfigSection.closest(to: key, in: names) { message += "; did you mean \"\(guess)\"?" }
            reader.report(path(key), message)
        }
    }

    static func closest(to key: String, in names: [String]) -> String? {
        let scored = names.map { ($0, editDistance(key, $0)) }.min { $0.1 < $1.1 }
        guard let (name, distance) = scored, distance <= max(2, key.count / 3) else { return nil }
        return name
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension ConfigSection {
    /// Each object of the array `key` (`clients`) as a section with its path (`clients[1]`); an
    /// array that is not one, or an item that is not an object, is reported.
    static func entries(_ value: ConfigValue?, key: String, of noun: String, reader: ConfigReader) -> [ConfigSection] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            reader.report(key, "must be an array of \(noun) objects, not \(value.typeName)")
            return []
        }
        return items.enumerated().compactMap { index, item in
            guard case .object(let object) = item else {
                reader.report("\(key)[\(index)]", "must be an object, not \(item.typeName)")
                return nil
            }
            return ConfigSection(reader: reader, path: "\(key)[\(index)]", values: object)
        }
    }

    /// The `clients` array: every entry read with the same rules as `signet clients add`, every
    /// mistake reported with its path (`clients[1].redirect_uris[0]`).
    static func clients(_ value: ConfigValue?, reader: ConfigReader, refreshFamilyLifetime: Int) -> [ConfiguredClient] {
        var result: [ConfiguredClient] = []
        var seen: Set<String> = []
        for c in entries(value, key: "clients", of: "client", reader: reader) {
            let object = c.values
            let before = reader.issues.count
            guard Settings.client.reportMissing(in: c) else {
                Settings.client.finish(c)
                continue
            }
            var entry = ClientEntry()
            Settings.client.read(c, into: &entry)
            let spec = entry.finishedSpec(secretIsGiven: object["secret"] != nil)
            let id = spec.id
            if !seen.insert(id).inserted { reader.report(c.path("id"), "another client has the id \(id)") }
            // Type errors were reported already; the client rules only make sense on what was read.
            guard reader.issues.count == before else { continue }
            let hasSecret = object["secret"] != nil
            for issue in ClientRegistration.problems(spec, hasSecret: hasSecret, refreshFamilyLifetime: refreshFamilyLifetime) {
                reader.report(c.path(issue.field), issue.message)
            }
            if !spec.isPublic && !hasSecret {
                reader.report(c.path("secret"), "a confidential client needs a secret reference, \"env:NAME\" or \"file:PATH\"")
            }
            result.append(ConfiguredClient(spec: spec, secret: entry.secret))
        }
        return result
    }
}
