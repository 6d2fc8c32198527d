import Foundation
import SignetCrypto
import SignetStore
import SignetWire
import SignetMacros

/// Turns a `ClientSpec` into a stored `ClientRecord`: applies the defaults, checks every rule
/// (RFC 8252 for redirect URIs, RFC 6749 for client types), and generates secrets.
///
/// Defaults: public clients get `authorization_code` + `refresh_token` and auth method `none`;
/// confidential clients `client_secret_basic` and `authorization_code` + `refresh_token`
/// (`client_credentials` only when asked); scope `openid profile email offline_access`;
/// not first-party; the server's ID token algorithm.
@MemberwiseInit
public struct ClientRegistration: Sendable {
    /// Lifetimes and the default ID token algorithm.
    public let policy: ServerPolicy
    /// Hashes secrets.
    public let registry: ClientRegistry
    /// Source of secret material.
    public let random: any RandomSource
    /// Timestamps.
    public let clock: any Clock

    /// Scope a client may ask for when the spec does not say.
    public static let defaultScope = "openid profile email offline_access"
    /// Prefix of generated client secrets, so secret scanners recognise them.
    public static let secretPrefix = "sgcs_"
    /// The shortest secret accepted from a configuration file: the fast keyed hash is only safe
    /// for high-entropy secrets.
    public static let minimumSecretLength = 32

    /// Uses the authorization server's policy, registry, random source and clock.
    public init(server: AuthorizationServer) {
        self.init(policy: server.policy, registry: server.clients, random: server.random, clock: server.clock)
    }

    /// A new client secret: `sgcs_` + base64url of 32 random bytes. Shown once, stored hashed.
    public func makeSecret() -> String {
        ClientRegistration.secretPrefix + Base64URL.encode(random.bytes(32))
    }

    /// Every rule the spec breaks; empty when it is valid. `hasSecret` says whether a secret will
    /// be stored (a configured reference, or one generated for a confidential client).
    public func problems(_ spec: ClientSpec, hasSecret: Bool? = nil) -> [ClientSpecIssue] {
        ClientRegistration.problems(spec, hasSecret: hasSecret, refreshFamilyLifetime: policy.refreshFamilyLifetime)
    }

    /// The rules, for callers without a server (the configuration reader): `refreshFamilyLifetime`
    /// bounds a client's refresh token lifetime.
    public static func problems(_ spec: ClientSpec, hasSecret: Bool?, refreshFamilyLifetime: Int) -> [ClientSpecIssue] {
        var issues: [ClientSpecIssue] = []
        func report(_ field: String, _ message: String) { issues.append(ClientSpecIssue(field: field, message: message)) }

        if spec.id == AccountClient.id { report("id", "\(AccountClient.id) is reserved for the account page") }
        if spec.id == ConsoleClient.id { report("id", "\(ConsoleClient.id) is reserved for the console") }
        if spec.id.isEmpty || spec.id.utf8.count > 128
            || !spec.id.utf8.allSatisfy({ ClientRegistration.isUnreserved($0) }) {
            report("id", "must be 1 to 128 characters from A-Z a-z 0-9 - . _ ~")
        }
        if let name = spec.name, name.isEmpty || name.count > 200 || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            report("name", "must be 1 to 200 printable characters")
        }
        if hasSecret == true && spec.isPublic {
            report("secret", "public clients have no secret (RFC 8252 §8.5: an installed app cannot keep one)")
        }
        // Redirect URIs: RFC 8252 rules, no duplicates.
        var redirects: [RedirectURI] = []
        for (index, value) in spec.redirectURIs.enumerated() {
            do {
                let uri = try RedirectURI(registering: value)
                if uri.kind == .privateUseScheme && !spec.isPublic {
                    report("redirect_uris[\(index)]", "private-use schemes are for native apps, which are public clients (RFC 8252 §7.1)")
                }
                if spec.redirectURIs[..<index].contains(value) { report("redirect_uris[\(index)]", "is listed twice") }
                redirects.append(uri)
            } catch {
                report("redirect_uris[\(index)]", error.message)
            }
        }
        for (index, value) in spec.postLogoutRedirectURIs.enumerated() {
            do {
                let uri = try RedirectURI(registering: value)
                if uri.kind == .privateUseScheme && !spec.isPublic {
                    report("post_logout_redirect_uris[\(index)]", "private-use schemes are for native apps, which are public clients (RFC 8252 §7.1)")
                }
            } catch {
                report("post_logout_redirect_uris[\(index)]", error.message)
            }
        }
        // RFC 8707 resources: absolute URIs without a fragment, no duplicates.
        for (index, value) in spec.allowedResources.enumerated() {
            if !ResourceIndicator.isWellFormed(value) {
                report("resources[\(index)]", "must be an absolute URI with a host and no fragment (RFC 8707 §2)")
            } else if spec.allowedResources[..<index].contains(value) {
                report("resources[\(index)]", "is listed twice")
            }
        }
        // Scope.
        do {
            let scope = try Scope(parsing: spec.scope ?? ClientRegistration.defaultScope)
            if !spec.firstParty, let reserved = Scope.firstPartyOnly.first(where: scope.contains) {
                report("scope", "\(reserved) is only for first-party clients (set first_party)")
            }
        } catch {
            report("scope", "contains a character that is not allowed in a scope token (RFC 6749 §3.3)")
        }
        // Grant types.
        var grants: [GrantType] = []
        for (index, name) in (spec.grantTypes ?? []).enumerated() {
            guard let grant = GrantType(rawValue: name) else {
                report("grant_types[\(index)]", "unknown grant type \"\(name)\"; use authorization_code, refresh_token, client_credentials or \(GrantType.tokenExchange.rawValue)")
                continue
            }
            grants.append(grant)
        }
        if let given = spec.grantTypes, given.isEmpty {
            report("grant_types", "a client needs at least one grant type")
        }
        let effectiveGrants = spec.grantTypes == nil ? [.authorizationCode, .refreshToken] : grants
        if spec.isPublic && effectiveGrants.contains(.clientCredentials) {
            report("grant_types", "public clients cannot use client_credentials (RFC 6749 §4.4)")
        }
        if effectiveGrants.contains(.authorizationCode) && spec.redirectURIs.isEmpty {
            report("redirect_uris", "authorization_code needs at least one redirect URI")
        }
        if effectiveGrants.contains(.refreshToken) && !effectiveGrants.contains(.authorizationCode)
            && !effectiveGrants.contains(.tokenExchange) {
            report("grant_types", "refresh_token needs authorization_code or token exchange, the grants that issue refresh tokens")
        }
        // A type given explicitly must fit the rest (an inferred one always does).
        if let problem = spec.applicationType?.problem(isPublic: spec.isPublic, redirectURIs: spec.redirectURIs) {
            report(problem.field, problem.message)
        }
        // Native ID-token sign-in is for the operator's own apps: public and first-party.
        if effectiveGrants.contains(.tokenExchange) && !(spec.isPublic && spec.firstParty) {
            report("grant_types", "token exchange (native ID-token sign-in) is only for first-party public clients")
        }
        // Authentication method.
        if let method = spec.authenticationMethod {
            if ClientAuthenticationMethod(rawValue: method) == nil {
                report("token_endpoint_auth_method", "must be none, client_secret_basic or client_secret_post")
            } else if spec.isPublic && method != ClientAuthenticationMethod.none.rawValue {
                report("token_endpoint_auth_method", "public clients use \"none\"")
            } else if !spec.isPublic && method == ClientAuthenticationMethod.none.rawValue {
                report("token_endpoint_auth_method", "confidential clients use client_secret_basic or client_secret_post")
            }
        }
        if let algorithm = spec.idTokenAlgorithm, SignatureAlgorithm(rawValue: algorithm) == nil {
            report("id_token_algorithm", "must be one of \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let seconds = spec.lifetimes.accessToken, !(30...86_400).contains(seconds) {
            report("access_token_lifetime", "must be between 30 and 86400 seconds")
        }
        if let seconds = spec.lifetimes.idToken, !(30...86_400).contains(seconds) {
            report("id_token_lifetime", "must be between 30 and 86400 seconds")
        }
        if let seconds = spec.lifetimes.refreshToken, !(60...max(60, refreshFamilyLifetime)).contains(seconds) {
            report("refresh_token_lifetime", "must be between 60 and \(refreshFamilyLifetime) seconds (the family lifetime)")
        }
        return issues
    }

    /// Builds the record to store. Confidential clients need `secretHash` (from
    /// `ClientRegistry.hashSecret`); public clients must not have one.
    public func record(_ spec: ClientSpec, secretHash: [UInt8]?) throws(ClientRegistrationError) -> ClientRecord {
        var issues = problems(spec, hasSecret: secretHash != nil)
        if !spec.isPublic && secretHash == nil {
            issues.append(ClientSpecIssue(field: "secret", message: "a confidential client needs a secret"))
        }
        guard issues.isEmpty else { throw ClientRegistrationError(issues: issues) }
        let grants = spec.grantTypes ?? [GrantType.authorizationCode.rawValue, GrantType.refreshToken.rawValue]
        var uniqueGrants: [String] = []
        for grant in grants where !uniqueGrants.contains(grant) { uniqueGrants.append(grant) }
        let method = spec.authenticationMethod
            ?? (spec.isPublic ? ClientAuthenticationMethod.none : ClientAuthenticationMethod.clientSecretBasic).rawValue
        let scope = (try? Scope(parsing: spec.scope ?? ClientRegistration.defaultScope)) ?? Scope([String]())
        let now = clock.now
        let record = ClientRecord(
            id: spec.id, name: spec.name ?? spec.id, secretHash: secretHash, isPublic: spec.isPublic,
            firstParty: spec.firstParty, redirectURIs: spec.redirectURIs, postLogoutRedirectURIs: spec.postLogoutRedirectURIs,
            allowedScopes: scope.tokens, grantTypes: uniqueGrants, tokenEndpointAuthMethod: method,
            idTokenAlgorithm: spec.idTokenAlgorithm ?? policy.idTokenAlgorithm.rawValue,
            lifetimes: spec.lifetimes, allowHeadless: spec.allowHeadless,
            allowedResources: spec.allowedResources, createdAt: now, updatedAt: now,
            extra: Client.extra(mfaRequired: spec.mfaRequired, emailSignIn: spec.emailSignIn,
                                applicationType: spec.applicationType
                                    ?? ApplicationType.inferred(isPublic: spec.isPublic, grantTypes: uniqueGrants, scopes: scope.tokens)))
        // The record must also pass the rules the registry applies when it loads clients.
        do { _ = try Client(record: record) } catch {
            throw ClientRegistrationError(issues: [ClientSpecIssue(field: "client", message: error.message)])
        }
        return record
    }

    /// Registers a new client. Returns the stored record and, for a confidential client, the
    /// generated secret: the only time it is ever available. Throws `StoreError.duplicate`-like
    /// `ClientRegistrationError` when the id is taken.
    public func register(_ spec: ClientSpec) throws -> (record: ClientRecord, secret: String?) {
        let secret = spec.isPublic ? nil : makeSecret()
        let record = try record(spec, secretHash: secret.map(registry.hashSecret))
        guard try registry.store.client(id: spec.id) == nil else {
            throw ClientRegistrationError(issues: [ClientSpecIssue(field: "id", message: "a client with id \(spec.id) already exists")])
        }
        try registry.store.upsertClient(record)
        return (record, secret)
    }

    /// Replaces a confidential client's secret; the old one stops working at once (on other
    /// nodes within the registry's recheck interval). Returns the new secret, shown once.
    public func rotateSecret(clientID: String) throws -> String {
        guard var record = try registry.store.client(id: clientID) else {
            throw ClientRegistrationError(issues: [ClientSpecIssue(field: "id", message: "no client has id \(clientID)")])
        }
        guard !record.isPublic else {
            throw ClientRegistrationError(issues: [ClientSpecIssue(field: "secret", message: "\(clientID) is a public client and has no secret")])
        }
        let secret = makeSecret()
        record.secretHash = registry.hashSecret(secret)
        record.updatedAt = clock.now
        try registry.store.upsertClient(record)
        return secret
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }
}
