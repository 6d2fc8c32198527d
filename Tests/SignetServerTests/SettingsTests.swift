import Foundation
import SignetCrypto
import SignetTesting
import Testing
@testable import SignetServer

/// The declarations in Settings.swift are the rules: the range and the values the reference
/// shows for a setting are exactly what the loader accepts, for every setting of every group.
@Suite(.endToEndLimit) struct SettingsTests {
    /// A file holding `value` at `key` of `group`, with what an array entry needs besides.
    static func file<Root>(_ group: SettingsGroup<Root>, _ key: String, _ value: String) -> (json: String, path: String) {
        func entry(_ needed: [(String, String)]) -> String {
            "{" + (needed.filter { $0.0 != key } + [(key, value)]).map { #""\#($0.0)": \#($0.1)"# }.joined(separator: ", ") + "}"
        }
        switch group.key {
        case nil: return (entry([]), key)
        case "clients[]":
            return (#"{"clients": [\#(entry([("id", #""a""#), ("redirect_uris", #"["com.example.app:/cb"]"#)]))]}"#, "clients[0].\(key)")
        case "connections[]":
            let needed = [("id", #""g""#), ("type", #""google""#), ("client_id", #""x""#), ("client_secret", #""env:S""#)]
            return (#"{"connections": [\#(entry(needed))]}"#, "connections[0].\(key)")
        case let section?: return (#"{"\#(section)": \#(entry([]))}"#, "\(section).\(key)")
        }
    }

    /// The issues a file gets (none when it is accepted).
    static func issues(_ json: String) -> [ConfigurationIssue] {
        do {
            _ = try SignetConfiguration(parsing: Data(json.utf8))
            return []
        } catch {
            return error.issues
        }
    }

    /// Every setting with a range: its bounds are accepted, one past either bound is refused
    /// at the setting's path with the range the reference prints.
    @Test func everyRangeInTheReferenceIsTheRangeEnforced() {
        var checked: [String] = []
        func check<Root>(_ group: SettingsGroup<Root>) {
            for setting in group {
                guard let range = setting.range else { continue }
                checked.append(setting.key)
                #expect(setting.type.contains("\(range.lowerBound) to \(range.upperBound)"), "\(setting.key)")
                for inside in [range.lowerBound, range.upperBound] {
                    // Cross-field rules (session_idle ≤ session_absolute, …) may still object.
                    let (json, path) = Self.file(group, setting.key, "\(inside)")
                    let wrong = Self.issues(json).filter { $0.path == path && $0.message.hasPrefix("must be between") }
                    #expect(wrong.isEmpty, "\(json): \(wrong)")
                }
                for outside in [range.lowerBound - 1, range.upperBound + 1] {
                    let (json, path) = Self.file(group, setting.key, "\(outside)")
                    let message = "must be between \(range.lowerBound) and \(range.upperBound), not \(outside)"
                    #expect(Self.issues(json).contains(ConfigurationIssue(path: path, message: message)), "\(json)")
                }
            }
        }
        for group in Settings.sections { check(group) }
        check(Settings.client)
        check(Settings.connection)
        // Every lifetime, limit and pool size, in reference order: a new one is added here, so none is skipped.
        #expect(checked == [
            "max_connections", "statement_timeout", "max_body_bytes", "max_header_bytes", "connection_limit",
            "per_address_connection_limit", "connection_timeout_seconds", "threads", "authorization_request", "authorization_code",
            "access_token", "id_token", "refresh_token", "refresh_token_absolute", "refresh_token_reuse_grace", "session_idle",
            "session_absolute", "prepublish_seconds", "argon2id_ops_limit", "argon2id_memory_kib", "purge_interval", "purge_retention",
            "purge_rest", "timeout", "options_per_minute", "max_ceremonies", "attempt_limit", "attempt_window", "lock_after",
            "invitation_lifetime",
            "retention", "resolver_timeout", "timeout_seconds",
        ])
    }

    /// Every setting that takes one of a list: each listed value is accepted, anything else is
    /// refused naming the field and every allowed value.
    @Test func everyListedValueIsAcceptedAndNoOther() {
        var checked: [String] = []
        func check<Root>(_ group: SettingsGroup<Root>) {
            for setting in group {
                guard let allowed = setting.allowedValues else { continue }
                checked.append(setting.key)
                for value in allowed {
                    // Rules between fields (a public client's method, …) may still object.
                    let (json, path) = Self.file(group, setting.key, "\"\(value)\"")
                    let wrong = Self.issues(json).filter { $0.path == path && $0.message.hasPrefix("must be one of") }
                    #expect(wrong.isEmpty, "\(json): \(wrong)")
                }
                let (json, path) = Self.file(group, setting.key, #""HS256-none""#)
                let message = "must be one of \(allowed.joined(separator: ", ")), not \"HS256-none\""
                #expect(Self.issues(json).contains(ConfigurationIssue(path: path, message: message)), "\(json)")
            }
        }
        for group in Settings.sections { check(group) }
        check(Settings.client)
        check(Settings.connection)
        // Every setting that takes one of a list, in reference order (clients' and connections' last).
        #expect(checked == ["driver", "synchronous", "access_token_algorithm", "id_token_algorithm", "sign_up", "level", "format", "type",
                            "token_endpoint_auth_method", "id_token_algorithm", "application_type", "type", "token_endpoint_auth_method"])
    }

    @Test func enumsAreParsedOnce() throws {
        let json = #"{"master_key": "env:K", "database": {"driver": "postgres", "url": "env:U"}, "keys": {"access_token_algorithm": "PS256", "id_token_algorithm": "EdDSA"}, "clients": [{"id": "a", "redirect_uris": ["com.example.app:/cb"], "id_token_algorithm": "ES256", "token_endpoint_auth_method": "none"}]}"#
        let config = try SignetConfiguration(parsing: Data(json.utf8))
        #expect(config.database.driver == .postgres)
        #expect(config.keys.accessTokenAlgorithm == .ps256)
        #expect(config.keys.idTokenAlgorithm == .edDSA)
        #expect(config.clients.first?.spec.idTokenAlgorithm == "ES256")
        #expect(config.clients.first?.spec.authenticationMethod == "none")
        #expect(config.clients.first?.spec.isPublic == true)
    }

    /// The policy the authorization server applies is the configuration's, field by field, and
    /// the empty file's policy holds the declared defaults.
    @Test func thePolicyIsDerivedFromTheConfiguration() throws {
        let json = #"{"issuer": "https://id.example.com", "lifetimes": {"authorization_request": 61, "authorization_code": 11, "access_token": 31, "id_token": 32, "refresh_token": 62, "refresh_token_absolute": 63, "refresh_token_reuse_grace": 1, "session_idle": 64, "session_absolute": 65}, "keys": {"access_token_algorithm": "EdDSA", "id_token_algorithm": "PS256"}}"#
        let policy = try SignetConfiguration(parsing: Data(json.utf8)).policy
        #expect(policy.issuer == "https://id.example.com")
        let lifetimes: [Int] = [policy.authorizationRequestLifetime, policy.authorizationCodeLifetime, policy.accessTokenLifetime,
                                policy.idTokenLifetime, policy.refreshTokenLifetime, policy.refreshFamilyLifetime, policy.refreshGrace,
                                policy.sessionIdle, policy.sessionAbsolute]
        #expect(lifetimes == [61, 11, 31, 32, 62, 63, 1, 64, 65])
        #expect(policy.accessTokenAlgorithm == .edDSA && policy.idTokenAlgorithm == .ps256)

        let defaults = SignetConfiguration.defaults.policy
        #expect(defaults.issuer == Settings.issuer.defaultValue)
        #expect(defaults.accessTokenLifetime == Settings.accessTokenLifetime.defaultValue)
        #expect(defaults.refreshGrace == Settings.refreshGrace.defaultValue)
        #expect(defaults.sessionAbsolute == Settings.sessionAbsolute.defaultValue)
        #expect(defaults.accessTokenAlgorithm == Settings.accessTokenAlgorithm.defaultValue)
        #expect(defaults.idTokenAlgorithm == .rs256)
    }

    /// A bad value leaves the declared default in place (and is reported), as an absent key does.
    @Test func aBadValueIsReportedAndAnAbsentSectionTakesTheDefaults() throws {
        #expect(Self.issues(#"{"lifetimes": {"access_token": "15m"}}"#)
                == [ConfigurationIssue(path: "lifetimes.access_token", message: "must be a whole number, not a string")])
        let config = try SignetConfiguration(parsing: Data(#"{"lifetimes": {}}"#.utf8))
        #expect(config.lifetimes.accessToken == Settings.accessTokenLifetime.defaultValue)
        #expect(config.http.maxBodyBytes == Settings.maxBodyBytes.defaultValue)
        #expect(config.masterKey == Settings.masterKey.defaultValue)
    }
}
