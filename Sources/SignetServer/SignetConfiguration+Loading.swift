import Foundation
import SignetCore
import SignetHTTP

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
        issuer = section.string(Settings.issuer)
        issuerIsExplicit = top["issuer"] != nil
        listen = section.stringArray(Settings.listen)
        dataDirectory = section.string(Settings.dataDirectory)
        masterKey = section.secret(Settings.masterKey) ?? .file("master.key")
        if let db = section.section("database") {
            let before = reader.issues.count
            database.driver = db.choice(Settings.databaseDriver, from: ["sqlite", "postgres"])
            let driverIsKnown = reader.issues.count == before
            database.path = db.string(Settings.databasePath)
            database.url = db.secret(Settings.databaseURL)
            database.maxConnections = db.int(Settings.databaseMaxConnections, in: 1...1000)
            database.statementTimeoutSeconds = db.int(Settings.databaseStatementTimeout, in: 1...600)
            db.finish(known: Settings.database)
            // After a driver typo the rest cannot be judged.
            if driverIsKnown { validateDatabase(db, masterKeyIsExplicit: top["master_key"] != nil) }
        }
        if let h = section.section("http") {
            http.maxBodyBytes = h.int(Settings.maxBodyBytes, in: 1024...1_073_741_824)
            http.maxHeaderBytes = h.int(Settings.maxHeaderBytes, in: 1024...1_048_576)
            http.connectionLimit = h.int(Settings.connectionLimit, in: 1...100_000)
            http.perAddressConnectionLimit = h.int(Settings.perAddressConnectionLimit, in: 0...100_000)
            http.trustedProxies = h.stringArray(Settings.trustedProxies)
            for (index, entry) in http.trustedProxies.enumerated() {
                do { _ = try IPNetwork(entry) } catch { reader.report("\(h.path(Settings.trustedProxies.key))[\(index)]", error.description) }
            }
            http.connectionTimeoutSeconds = h.int(Settings.connectionTimeout, in: 1...3600)
            http.threads = h.int(Settings.threads, in: 0...256)
            http.tlsCertificateFile = h.optionalString(Settings.tlsCertificate)
            http.tlsPrivateKey = h.secret(Settings.tlsPrivateKey)
            if (http.tlsCertificateFile == nil) != (http.tlsPrivateKey == nil) {
                reader.report(h.path("tls_certificate_file"), "tls_certificate_file and tls_private_key go together")
            }
            h.finish(known: Settings.http)
        }
        if let l = section.section("lifetimes") {
            lifetimes.authorizationRequest = l.int(Settings.authorizationRequestLifetime, in: 60...3600)
            lifetimes.authorizationCode = l.int(Settings.authorizationCodeLifetime, in: 10...600)
            lifetimes.accessToken = l.int(Settings.accessTokenLifetime, in: 30...86_400)
            lifetimes.idToken = l.int(Settings.idTokenLifetime, in: 30...86_400)
            lifetimes.refreshToken = l.int(Settings.refreshTokenLifetime, in: 60...31_536_000)
            lifetimes.refreshFamily = l.int(Settings.refreshFamilyLifetime, in: 60...63_072_000)
            lifetimes.refreshGrace = l.int(Settings.refreshGrace, in: 0...300)
            lifetimes.sessionIdle = l.int(Settings.sessionIdle, in: 60...31_536_000)
            lifetimes.sessionAbsolute = l.int(Settings.sessionAbsolute, in: 60...31_536_000)
            l.finish(known: Settings.lifetimes)
        }
        if let k = section.section("keys") {
            keys.accessTokenAlgorithm = k.choice(Settings.accessTokenAlgorithm, from: ["ES256", "RS256", "PS256", "EdDSA"])
            keys.idTokenAlgorithm = k.choice(Settings.idTokenAlgorithm, from: ["RS256", "ES256", "PS256", "EdDSA"])
            keys.prepublishSeconds = k.int(Settings.keyPrepublish, in: 0...2_592_000)
            k.finish(known: Settings.keys)
        }
        if let p = section.section("passwords") {
            passwords.opsLimit = p.int(Settings.argonOps, in: 1...10)
            passwords.memoryKiB = p.int(Settings.argonMemory, in: 8192...4_194_304)
            p.finish(known: Settings.passwords)
        }
        if let m = section.section("maintenance") {
            maintenance.purgeInterval = m.int(Settings.purgeInterval, in: 0...604_800)
            maintenance.purgeRetention = m.int(Settings.purgeRetention, in: 0...31_536_000)
            m.finish(known: Settings.maintenance)
        }
        if let l = section.section("log") {
            log.requests = l.bool(Settings.logRequests)
            l.finish(known: Settings.log)
        }
        clients = ConfigSection.clients(top["clients"], reader: reader, refreshFamilyLifetime: lifetimes.refreshFamily)
        connections = ConfigSection.connections(top["connections"], reader: reader)
        section.finish(known: Settings.topLevel, sections: ["database", "http", "lifetimes", "keys", "passwords", "maintenance", "log", "clients", "connections"])
        validate(reader)
        if !reader.issues.isEmpty { throw ConfigurationError(issues: reader.issues) }
    }

    /// Cross-field rules that no single setting can check.
    private func validate(_ reader: ConfigReader) {
        if let problem = SignetConfiguration.issuerProblem(issuer) { reader.report("issuer", problem) }
        if listen.isEmpty && !reader.issues.contains(where: { $0.path.hasPrefix("listen") }) {
            reader.report("listen", "at least one listen address is needed")
        }
        for (index, address) in listen.enumerated() where SignetConfiguration.listenProblem(address) != nil {
            reader.report("listen[\(index)]", SignetConfiguration.listenProblem(address) ?? "")
        }
        if lifetimes.sessionIdle > lifetimes.sessionAbsolute {
            reader.report("lifetimes.session_idle", "must not exceed lifetimes.session_absolute")
        }
        if lifetimes.refreshToken > lifetimes.refreshFamily {
            reader.report("lifetimes.refresh_token", "must not exceed lifetimes.refresh_token_absolute")
        }
    }

    /// The rules between the database settings: each backend's own settings only, a connection
    /// string for PostgreSQL, and one master key shared by every node.
    private func validateDatabase(_ db: ConfigSection, masterKeyIsExplicit: Bool) {
        let given = Set(db.values.keys)
        if database.isPostgres {
            if !given.contains("url") {
                db.reader.report(db.path("url"), "is required with driver \"postgres\": \"env:NAME\" or \"file:PATH\" holding the connection string")
            }
            if given.contains("path") { db.reader.report(db.path("path"), "is for SQLite only; PostgreSQL uses database.url") }
            // Several nodes share the database, so they must share the key that decrypts its
            // signing keys and keys its token hashes: a key generated per node would split them.
            if !masterKeyIsExplicit {
                db.reader.report("master_key", "must be set explicitly (\"env:NAME\" or \"file:PATH\") with driver \"postgres\": every node needs the same key, so none is generated")
            }
        } else {
            for key in ["url", "max_connections", "statement_timeout"] where given.contains(key) {
                db.reader.report(db.path(key), "is for PostgreSQL only (driver \"postgres\")")
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

    func string(_ setting: Setting<String>) -> String {
        guard let value = values[setting.key] else { return setting.defaultValue }
        guard case .string(let text) = value else {
            reader.report(path(setting.key), "must be a string, not \(value.typeName)")
            return setting.defaultValue
        }
        return text
    }

    func optionalString(_ setting: Setting<String?>) -> String? {
        guard let value = values[setting.key] else { return setting.defaultValue }
        guard case .string(let text) = value else {
            reader.report(path(setting.key), "must be a string, not \(value.typeName)")
            return setting.defaultValue
        }
        return text
    }

    func bool(_ setting: Setting<Bool>) -> Bool {
        guard let value = values[setting.key] else { return setting.defaultValue }
        guard case .bool(let flag) = value else {
            reader.report(path(setting.key), "must be true or false, not \(value.typeName)")
            return setting.defaultValue
        }
        return flag
    }

    func optionalInt(_ setting: Setting<Int?>) -> Int? {
        guard let value = values[setting.key] else { return setting.defaultValue }
        guard case .number(let number) = value, number.rounded() == number, let integer = Int(exactly: number) else {
            reader.report(path(setting.key), "must be a whole number, not \(value.typeName == "a number" ? "a fraction" : value.typeName)")
            return setting.defaultValue
        }
        return integer
    }

    func optionalStringArray(_ setting: Setting<[String]?>) -> [String]? {
        guard values[setting.key] != nil else { return setting.defaultValue }
        return stringArray(Setting(setting.key, [], type: setting.type, setting.summary))
    }

    func choice(_ setting: Setting<String>, from allowed: [String]) -> String {
        let text = string(setting)
        guard allowed.contains(text) else {
            reader.report(path(setting.key), "must be one of \(allowed.joined(separator: ", ")), not \"\(text)\"")
            return setting.defaultValue
        }
        return text
    }

    func stringArray(_ setting: Setting<[String]>) -> [String] {
        guard let value = values[setting.key] else { return setting.defaultValue }
        guard case .array(let items) = value else {
            reader.report(path(setting.key), "must be an array of strings, not \(value.typeName)")
            return setting.defaultValue
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                reader.report("\(path(setting.key))[\(index)]", "must be a string, not \(item.typeName)")
                continue
            }
            result.append(text)
        }
        return result
    }

    func int(_ setting: Setting<Int>, in range: ClosedRange<Int>) -> Int {
        guard let value = values[setting.key] else { return setting.defaultValue }
        guard case .number(let number) = value, number.rounded() == number, let integer = Int(exactly: number) else {
            reader.report(path(setting.key), "must be a whole number, not \(value.typeName == "a number" ? "a fraction" : value.typeName)")
            return setting.defaultValue
        }
        guard range.contains(integer) else {
            reader.report(path(setting.key), "must be between \(range.lowerBound) and \(range.upperBound), not \(integer)")
            return setting.defaultValue
        }
        return integer
    }

    func secret<S>(_ setting: Setting<S>) -> SecretReference? {
        guard let value = values[setting.key] else {
            if let text = setting.defaultValue as? String { return try? SecretReference(parsing: text) }
            return nil
        }
        guard case .string(let text) = value else {
            reader.report(path(setting.key), "must be a string, not \(value.typeName)")
            return nil
        }
        do { return try SecretReference(parsing: text) } catch {
            reader.report(path(setting.key), error.message)
            return nil
        }
    }

    /// Reports every key that is not a known setting or section, with a suggestion for typos.
    func finish(known: [SettingEntry], sections: [String] = []) {
        let names = known.map(\.key) + sections
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
    /// The `clients` array: every entry read with the same rules as `signet clients add`, every
    /// mistake reported with its path (`clients[1].redirect_uris[0]`).
    static func clients(_ value: ConfigValue?, reader: ConfigReader, refreshFamilyLifetime: Int) -> [ConfiguredClient] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            reader.report("clients", "must be an array of client objects, not \(value.typeName)")
            return []
        }
        var result: [ConfiguredClient] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let path = "clients[\(index)]"
            guard case .object(let object) = item else {
                reader.report(path, "must be an object, not \(item.typeName)")
                continue
            }
            let c = ConfigSection(reader: reader, path: path, values: object)
            let before = reader.issues.count
            guard object["id"] != nil else {
                reader.report(c.path("id"), "is required")
                c.finish(known: Settings.client)
                continue
            }
            let id = c.string(Settings.clientID)
            let secret = object["secret"] == nil ? nil : c.secret(Settings.clientSecret)
            var isPublic = secret == nil && object["secret"] == nil
            if let type = c.optionalString(Settings.clientType) {
                switch type {
                case "public": isPublic = true
                case "confidential": isPublic = false
                default: reader.report(c.path("type"), "must be \"public\" or \"confidential\", not \"\(type)\"")
                }
            }
            let spec = ClientSpec(
                id: id, name: c.optionalString(Settings.clientName), isPublic: isPublic,
                redirectURIs: c.stringArray(Settings.clientRedirectURIs),
                postLogoutRedirectURIs: c.stringArray(Settings.clientPostLogoutRedirectURIs),
                scope: object["scope"] == nil ? nil : c.string(Settings.clientScope),
                grantTypes: c.optionalStringArray(Settings.clientGrantTypes),
                firstParty: c.bool(Settings.clientFirstParty),
                authenticationMethod: c.optionalString(Settings.clientAuthMethod),
                idTokenAlgorithm: c.optionalString(Settings.clientIDTokenAlgorithm),
                accessTokenLifetime: c.optionalInt(Settings.clientAccessTokenLifetime),
                refreshTokenLifetime: c.optionalInt(Settings.clientRefreshTokenLifetime),
                idTokenLifetime: c.optionalInt(Settings.clientIDTokenLifetime),
                allowHeadless: c.bool(Settings.clientAllowHeadless),
                allowedResources: c.stringArray(Settings.clientResources))
            c.finish(known: Settings.client)
            if !seen.insert(id).inserted { reader.report(c.path("id"), "another client has the id \(id)") }
            // Type errors were reported already; the client rules only make sense on what was read.
            guard reader.issues.count == before else { continue }
            let hasSecret = object["secret"] != nil
            for issue in ClientRegistration.problems(spec, hasSecret: hasSecret, refreshFamilyLifetime: refreshFamilyLifetime) {
                reader.report(c.path(issue.field), issue.message)
            }
            if !isPublic && !hasSecret {
                reader.report(c.path("secret"), "a confidential client needs a secret reference, \"env:NAME\" or \"file:PATH\"")
            }
            result.append(ConfiguredClient(spec: spec, secret: secret))
        }
        return result
    }
}
