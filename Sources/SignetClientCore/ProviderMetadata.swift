import Foundation

/// The subset of OpenID Connect Discovery 1.0 §3 (and RFC 8414) metadata that Signet's relying
/// parties use. Unknown members are ignored.
public struct ProviderMetadata: Sendable, Codable, Equatable {
    /// `issuer`: compared exactly with the issuer the metadata was fetched for.
    public var issuer: String
    /// `authorization_endpoint`.
    public var authorizationEndpoint: URL
    /// `token_endpoint` (absent only for implicit-only providers).
    public var tokenEndpoint: URL?
    /// `jwks_uri`.
    public var jwksURI: URL
    /// `userinfo_endpoint`.
    public var userinfoEndpoint: URL?
    /// `revocation_endpoint` (RFC 7009 / RFC 8414).
    public var revocationEndpoint: URL?
    /// `end_session_endpoint` (RP-Initiated Logout).
    public var endSessionEndpoint: URL?
    /// `response_types_supported`.
    public var responseTypesSupported: [String]?
    /// `response_modes_supported`.
    public var responseModesSupported: [String]?
    /// `grant_types_supported`.
    public var grantTypesSupported: [String]?
    /// `scopes_supported`.
    public var scopesSupported: [String]?
    /// `id_token_signing_alg_values_supported`.
    public var idTokenSigningAlgValuesSupported: [String]?
    /// `code_challenge_methods_supported`.
    public var codeChallengeMethodsSupported: [String]?
    /// `token_endpoint_auth_methods_supported`.
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// `claims_supported`.
    public var claimsSupported: [String]?
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §3): when true, every
    /// authorization response carries `iss`.
    public var authorizationResponseIssParameterSupported: Bool?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case grantTypesSupported = "grant_types_supported"
        case scopesSupported = "scopes_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case claimsSupported = "claims_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }
}

extension ProviderMetadata {
    /// Every endpoint the document names, under its member name: the URLs a relying party calls
    /// or sends a browser to.
    public var endpoints: [(member: String, url: URL)] {
        [(CodingKeys.authorizationEndpoint.rawValue, authorizationEndpoint), (CodingKeys.jwksURI.rawValue, jwksURI)]
            + [(CodingKeys.tokenEndpoint, tokenEndpoint), (.userinfoEndpoint, userinfoEndpoint), (.revocationEndpoint, revocationEndpoint),
               (.endSessionEndpoint, endSessionEndpoint)].compactMap { key, url in url.map { (key.rawValue, $0) } }
    }
}
