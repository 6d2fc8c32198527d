import Foundation
import SignetFederation
import SignetWire

extension ConfigSection {
    /// The `connections` array: every mistake reported with its path (`connections[0].client_id`).
    static func connections(_ value: ConfigValue?, reader: ConfigReader) -> [ConfiguredConnection] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            reader.report("connections", "must be an array of connection objects, not \(value.typeName)")
            return []
        }
        var result: [ConfiguredConnection] = []
        var seen: Set<String> = []
        var realms: [String: String] = [:]
        for (index, item) in items.enumerated() {
            let path = "connections[\(index)]"
            guard case .object(let object) = item else {
                reader.report(path, "must be an object, not \(item.typeName)")
                continue
            }
            let c = ConfigSection(reader: reader, path: path, values: object)
            let before = reader.issues.count
            for key in ["id", "type", "client_id"] where object[key] == nil { reader.report(c.path(key), "is required") }
            let id = c.string(Settings.connectionID)
            if object["id"] != nil, let problem = Connection.idProblem(id) { reader.report(c.path("id"), problem) }
            let typeName = c.string(Settings.connectionType)
            let type = ConnectionType(rawValue: typeName)
            if object["type"] != nil, type == nil {
                reader.report(c.path("type"), "must be one of \(ConnectionType.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(typeName)\"")
            }
            var method: ClientAuthenticationMethod?
            if let text = c.optionalString(Settings.connectionAuthMethod) {
                method = ClientAuthenticationMethod(rawValue: text)
                if method == nil {
                    reader.report(c.path("token_endpoint_auth_method"), "must be client_secret_basic, client_secret_post or none, not \"\(text)\"")
                }
            }
            let clientSecret = object["client_secret"] == nil ? nil : c.secret(Settings.connectionClientSecret)
            let privateKey = object["private_key"] == nil ? nil : c.secret(Settings.connectionPrivateKey)
            let connection = Connection(
                id: id, type: type ?? .oidc, clientID: c.string(Settings.connectionClientID),
                displayName: c.optionalString(Settings.connectionDisplayName), logoURL: c.optionalString(Settings.connectionLogoURL),
                issuer: c.optionalString(Settings.connectionIssuer), discoveryURL: c.optionalString(Settings.connectionDiscoveryURL),
                authorizationEndpoint: c.optionalString(Settings.connectionAuthorizationEndpoint),
                tokenEndpoint: c.optionalString(Settings.connectionTokenEndpoint), apiBaseURL: c.optionalString(Settings.connectionAPIBaseURL),
                authenticationMethod: method, scopes: c.optionalStringArray(Settings.connectionScopes),
                allowLinking: c.bool(Settings.connectionAllowLinking),
                allowedEmailDomains: c.optionalStringArray(Settings.connectionAllowedEmailDomains),
                hostedDomain: c.optionalString(Settings.connectionHostedDomain),
                homeRealmDomains: c.stringArray(Settings.connectionHomeRealmDomains), enabled: c.bool(Settings.connectionEnabled),
                timeoutSeconds: c.int(Settings.connectionCallTimeout, in: 1...60),
                appleTeamID: c.optionalString(Settings.connectionTeamID), appleKeyID: c.optionalString(Settings.connectionKeyID),
                nativeClientIDs: c.stringArray(Settings.connectionNativeClientIDs), nativeSignIn: c.bool(Settings.connectionNativeSignIn),
                trustedCertificatesFile: c.optionalString(Settings.connectionCAFile))
            c.finish(known: Settings.connection)
            if object["id"] != nil, !seen.insert(id).inserted { reader.report(c.path("id"), "another connection has the id \(id)") }
            guard reader.issues.count == before, let type else { continue }
            for (field, message) in problems(connection, type: type, object: object) { reader.report(c.path(field), message) }
            for (offset, domain) in connection.homeRealmDomains.enumerated() {
                if let owner = realms[domain] {
                    reader.report(c.path("home_realm_domains[\(offset)]"), "\(domain) already belongs to connection \(owner)")
                } else {
                    realms[domain] = id
                }
            }
            result.append(ConfiguredConnection(connection: connection, clientSecret: clientSecret, privateKey: privateKey))
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
            if let problem = urlProblem(text) { problems.append((key, problem)) }
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

    /// Why a provider URL is unusable, or nil: https, or http on a loopback host (local testing).
    static func urlProblem(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return "must be an absolute URL"
        }
        if url.fragment != nil { return "must not have a fragment" }
        if scheme == "https" { return nil }
        if scheme == "http", ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) { return nil }
        return "must use https (http only on a loopback address)"
    }

    private static func isDomain(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == 0x2D }
        }
    }
}
