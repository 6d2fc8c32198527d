import SignetCrypto
import SignetJOSE
import SignetStore
import SignetWire

/// A registered client, with every field parsed into its type.
public struct Client: Sendable {
    /// `client_id`.
    public let id: String
    /// Shown on consent pages.
    public let name: String
    /// Public clients (native apps) have no secret and must use PKCE.
    public let isPublic: Bool
    /// Keyed hash of the secret, for confidential clients.
    public let secretHash: [UInt8]?
    /// How the client authenticates at the token endpoint.
    public let authenticationMethod: ClientAuthenticationMethod
    /// Registered redirect URIs.
    public let redirectURIs: [RedirectURI]
    /// Registered post-logout redirect URIs.
    public let postLogoutRedirectURIs: [RedirectURI]
    /// The most the client may ask for.
    public let allowedScope: Scope
    /// Grant types the client may use.
    public let grantTypes: Set<GrantType>
    /// First-party clients skip the consent page.
    public let isFirstParty: Bool
    /// ID token signature algorithm.
    public let idTokenAlgorithm: SignatureAlgorithm
    /// Per-client access, refresh and ID token lifetimes, seconds; nil ones are the server's.
    public let lifetimes: ClientTokenLifetimes
    /// May use the headless native API.
    public let allowsHeadless: Bool
    /// RFC 8707 resources the client may ask access tokens for; empty: none (see `ResourceIndicator`).
    public let allowedResources: [String]
    /// Sign-ins for this client need a second factor (`mfa_required`, kept in the record's `extra`).
    public let requiresMFA: Bool
    /// Email codes and magic links as a sign-in method for this client (`email_sign_in`, kept in
    /// the record's `extra`); nil: as `accounts.email_sign_in` says.
    public let emailSignIn: Bool?
    /// What kind of app it is (`application_type`, kept in the record's `extra`; a client stored
    /// before types were is inferred at read, `ApplicationType.inferred`).
    public let applicationType: ApplicationType

    /// The record's `extra` object for the settings kept there.
    public static func extra(mfaRequired: Bool, emailSignIn: Bool? = nil, applicationType: ApplicationType? = nil) -> String {
        var fields: [String] = []
        if let applicationType { fields.append(#""application_type":"\#(applicationType.rawValue)""#) }
        if mfaRequired { fields.append(#""mfa_required":true"#) }
        if let emailSignIn { fields.append(#""email_sign_in":\#(emailSignIn)"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The settings a record keeps in its `extra` object.
    public struct ExtraSettings: Sendable {
        /// `mfa_required`.
        public let mfaRequired: Bool
        /// `email_sign_in`; nil: the global setting.
        public let emailSignIn: Bool?
        /// `application_type` as stored, else inferred from the record.
        public let applicationType: ApplicationType

        /// Reads `record.extra`.
        public init(_ record: ClientRecord) {
            let extra = try? JSONValue.parse(Array(record.extra.utf8)).objectValue
            mfaRequired = extra?["mfa_required"] == .bool(true)
            emailSignIn = extra?["email_sign_in"].flatMap { if case .bool(let on) = $0 { on } else { nil } }
            applicationType = extra?["application_type"]?.stringValue.flatMap(ApplicationType.init(rawValue:))
                ?? ApplicationType.inferred(isPublic: record.isPublic, grantTypes: record.grantTypes, scopes: record.allowedScopes)
        }
    }

    /// Parses a stored record. A record that no longer passes the rules is refused, not trusted.
    public init(record: ClientRecord) throws(ClientValidationError) {
        id = record.id
        name = record.name
        isPublic = record.isPublic
        secretHash = record.secretHash
        guard let method = ClientAuthenticationMethod(rawValue: record.tokenEndpointAuthMethod) else {
            throw ClientValidationError("unknown token endpoint authentication method \(record.tokenEndpointAuthMethod)")
        }
        guard (method == .none) == record.isPublic else {
            throw ClientValidationError("public clients use \"none\"; confidential clients need a secret method")
        }
        guard record.isPublic || record.secretHash != nil else { throw ClientValidationError("a confidential client needs a secret") }
        authenticationMethod = method
        do {
            redirectURIs = try record.redirectURIs.map(RedirectURI.init(registering:))
            postLogoutRedirectURIs = try record.postLogoutRedirectURIs.map(RedirectURI.init(registering:))
        } catch {
            throw ClientValidationError("redirect URI \(error.message)")
        }
        do { allowedScope = try Scope(parsing: record.allowedScopes.joined(separator: " ")) } catch {
            throw ClientValidationError("allowed scopes contain an invalid character")
        }
        var grants = Set<GrantType>()
        for name in record.grantTypes {
            guard let grant = GrantType(rawValue: name) else { throw ClientValidationError("unknown grant type \(name)") }
            grants.insert(grant)
        }
        if record.isPublic && grants.contains(.clientCredentials) {
            throw ClientValidationError("public clients cannot use client_credentials")
        }
        if grants.contains(.authorizationCode) && redirectURIs.isEmpty {
            throw ClientValidationError("authorization_code needs at least one redirect URI")
        }
        grantTypes = grants
        isFirstParty = record.firstParty
        guard let algorithm = SignatureAlgorithm(rawValue: record.idTokenAlgorithm) else {
            throw ClientValidationError("unknown ID token algorithm \(record.idTokenAlgorithm)")
        }
        idTokenAlgorithm = algorithm
        lifetimes = record.lifetimes
        allowsHeadless = record.allowHeadless
        for resource in record.allowedResources where !ResourceIndicator.isWellFormed(resource) {
            throw ClientValidationError("resource \(resource) is not an absolute URI without a fragment")
        }
        allowedResources = record.allowedResources
        let extra = ExtraSettings(record)
        requiresMFA = extra.mfaRequired
        emailSignIn = extra.emailSignIn
        applicationType = extra.applicationType
    }

    /// The registered redirect URI that `requested` matches (RFC 8252 §7.3 for loopback), if any.
    public func redirectURI(matching requested: String) -> RedirectURI? {
        redirectURIs.first { $0.matches(requested) }
    }

    /// True when a consent is never remembered for this client: RFC 8252 §8.6, a client that is not
    /// first-party and can receive codes at a private-use scheme, or a public one that can receive
    /// them on loopback (any local process can listen there), cannot be identified reliably.
    public var mustAlwaysAskConsent: Bool {
        !isFirstParty && redirectURIs.contains { $0.kind == .privateUseScheme || (isPublic && $0.kind == .loopback) }
    }
}

/// Why a client registration was refused.
public struct ClientValidationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
