import SignetWire
import SignetJOSE
import SignetWire

/// The provider metadata of OpenID Connect Discovery 1.0 §3 and RFC 8414 §2.
///
/// Only what Signet really implements is advertised: no request objects, no claims parameter,
/// no signed or encrypted userinfo (it is plain JSON), no front- or back-channel logout.
enum DiscoveryDocument {
    /// Client authentication methods of the token, revocation and introspection endpoints.
    static let authenticationMethods: [JSONValue] = ["client_secret_basic", "client_secret_post", "none"]

    /// The metadata as deterministic JSON bytes. `grantTypes` are the token endpoint's registry
    /// (`TokenEndpoint.grantTypes`): `/authorize` answers only `response_type=code`, whose grant is
    /// `authorization_code`, so it adds none (no implicit grant).
    static func build(issuer: String, signingAlgorithms: [String], grantTypes: [String]) -> [UInt8] {
        let algorithms = JSONValue.array(signingAlgorithms.map(JSONValue.string))
        let metadata: JSONValue = .object([
            "issuer": .string(issuer),
            "authorization_endpoint": .string(issuer + Routes.authorize),
            "token_endpoint": .string(issuer + Routes.token),
            "userinfo_endpoint": .string(issuer + Routes.userinfo),
            "jwks_uri": .string(issuer + Routes.jwks),
            "revocation_endpoint": .string(issuer + Routes.revoke),
            "introspection_endpoint": .string(issuer + Routes.introspect),
            "end_session_endpoint": .string(issuer + Routes.endSession),
            "scopes_supported": ["openid", "profile", "email", "offline_access", .string(Scope.accountDelete), .string(Scope.passkeysWrite),
                                 .string(Scope.organization)],
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": .array(grantTypes.map(JSONValue.string)),
            // Signet-specific: native ID-token sign-in (docs/guides/native-id-token.md).
            "native_nonce_endpoint": .string(issuer + Routes.nativeNonce),
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": .array(authenticationMethods),
            "revocation_endpoint_auth_methods_supported": .array(authenticationMethods),
            // RFC 7662 §2.1: introspection needs a confidential client.
            "introspection_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": algorithms,
            "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "azp", "acr", "amr", "sid", "at_hash",
                                 "name", "given_name", "family_name", "updated_at", "email", "email_verified", "org_id", "org_slug", "org_roles"],
            "prompt_values_supported": ["none", "login", "consent"],
            // OpenID Connect Discovery 1.0 §3: the acr values /authorize honours (acr_values) and tokens carry.
            "acr_values_supported": .array(AuthenticationLevel.supportedValues.map(JSONValue.string)),
            // RFC 9207: every authorization response carries iss.
            "authorization_response_iss_parameter_supported": true,
            "request_parameter_supported": false,
            "request_uri_parameter_supported": false,
            "require_request_uri_registration": false,
            "claims_parameter_supported": false,
        ])
        return metadata.serialized()
    }
}
