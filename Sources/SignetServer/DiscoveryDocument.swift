import SignetJOSE

/// The provider metadata of OpenID Connect Discovery 1.0 §3 and RFC 8414 §2.
///
/// Only what Signet really implements is advertised.
enum DiscoveryDocument {
    /// The metadata as deterministic JSON bytes.
    static func build(issuer: String, configuration: SignetConfiguration) -> [UInt8] {
        let url = { (path: String) in JSONValue.string(issuer + path) }
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        let metadata: [String: JSONValue] = [
            "issuer": .string(issuer),
            "jwks_uri": url(Routes.jwks),
        ]
        return JSONValue.object(metadata).serialized()
        _ = strings
    }
}
