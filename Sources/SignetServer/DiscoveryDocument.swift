import SignetJOSE

/// The provider metadata of OpenID Connect Discovery 1.0 §3 and RFC 8414 §2.
///
/// Only what Signet really implements is advertised.
enum DiscoveryDocument {
    /// The metadata as deterministic JSON bytes.
    static func build(issuer: String, signingAlgorithms: [String]) -> [UInt8] {
        let metadata: JSONValue = .object([
            "issuer": .string(issuer),
            "jwks_uri": .string(issuer + Routes.jwks),
            "id_token_signing_alg_values_supported": .array(signingAlgorithms.map(JSONValue.string)),
            "subject_types_supported": ["public"],
            "response_types_supported": ["code"],
        ])
        return metadata.serialized()
    }
}
