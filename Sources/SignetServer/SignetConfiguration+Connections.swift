import Foundation
import SignetClientCore
import SignetFederation
import SignetWire

extension ConfigSection {
    /// The `connections` array: every mistake reported with its path (`connections[0].client_id`).
    static func connections(_ value: ConfigValue?, reader: ConfigReader) -> [ConfiguredConnection] {
        var result: [ConfiguredConnection] = []
        var seen: Set<String> = []
        var realms: [String: String] = [:]
        for c in entries(value, key: "connections", of: "connection", reader: reader) {
            let object = c.values
            let before = reader.issues.count
            _ = Settings.connection.reportMissing(in: c)
            var entry = ConnectionEntry()
            Settings.connection.read(c, into: &entry)
            let id = entry.id
            if object["id"] != nil, let problem = Connection.idProblem(id) { reader.report(c.path("id"), problem) }
            let connection = entry.connection
            if object["id"] != nil, !seen.insert(id).inserted { reader.report(c.path("id"), "another connection has the id \(id)") }
            guard reader.issues.count == before, let type = entry.type else { continue }
            for (field, message) in problems(connection, type: type, object: object) { reader.report(c.path(field), message) }
            for (offset, domain) in connection.homeRealmDomains.enumerated() {
                if let owner = realms[domain] {
                    reader.report(c.path("home_realm_domains[\(offset)]"), "\(domain) already belongs to connection \(owner)")
                } else {
                    realms[domain] = id
                }
            }
            result.append(ConfiguredConnection(connection: connection, clientSecret: entry.clientSecret, privateKey: entry.privateKey))
        }
        return result
    }

    /// Rules across the fields of one connection.
    private static func problems(_ connection: Connection, type: ConnectionType, object: [String: ConfigValue]) -> [(String, String)] {
        var problems: [(String, String)] = []
        if connection.clientID.isEmpty { problems.append(("client_id", "must not be empty")) }
        if type == .oidc, object["issuer"] == nil { problems.append(("issuer", "is required for an oidc connection")) }
        for key in ["issuer", "discovery_url", "authorization_endpoint", "token_endpoint", "api_base_url", "logo_url"] {
            guard case .string(let text)? = object[key] else { continue }
            if let problem = ProviderURLRule.problem(text) { problems.append((key, problem)) }
        }
        if type == .apple {
            if object["client_secret"] != nil {
                problems.append(("client_secret", "apple connections use team_id, key_id and private_key; Signet mints the client secret"))
            }
            // Without the key, an Apple connection serves native ID-token sign-in only.
            let given = ["team_id", "key_id", "private_key"].filter { object[$0] != nil }
            if !given.isEmpty || !connection.nativeSignIn {
                for key in ["team_id", "key_id", "private_key"] where object[key] == nil {
                    problems.append((key, "is required for an apple connection (unless it serves native_sign_in only)"))
                }
            }
        } else {
            for key in ["team_id", "key_id", "private_key"] where object[key] != nil {
                problems.append((key, "is only for apple connections"))
            }
            if object["client_secret"] == nil, connection.authenticationMethod != .none {
                problems.append(("client_secret", "is required (a secret reference, \"env:NAME\" or \"file:PATH\")"))
            }
        }
        if type != .github, object["api_base_url"] != nil { problems.append(("api_base_url", "is only for github connections")) }
        if type != .google, object["hosted_domain"] != nil { problems.append(("hosted_domain", "is only for google connections")) }
        if type == .github, object["discovery_url"] != nil {
            problems.append(("discovery_url", "github is OAuth only and has no discovery document"))
        }
        if type == .github, connection.nativeSignIn { problems.append(("native_sign_in", "github issues no ID tokens")) }
        if connection.nativeSignIn, connection.nativeClientIDs.isEmpty {
            problems.append(("native_client_ids", "native_sign_in needs at least one native client id"))
        }
        for (offset, domain) in connection.homeRealmDomains.enumerated() where !isDomain(domain) {
            problems.append(("home_realm_domains[\(offset)]", "must be a domain such as example.com"))
        }
        for (offset, domain) in (connection.allowedEmailDomains ?? []).enumerated() where !isDomain(domain) {
            problems.append(("allowed_email_domains[\(offset)]", "must be a domain such as example.com"))
        }
        return problems
    }

    private static func isDomain(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == 0x2D }
        }
    }
}
