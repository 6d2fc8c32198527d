import Foundation
import SignetClientCore
import SignetJOSE

/// The server's side of the configuration, from its discovery document.
public struct ProviderConfiguration: Sendable {
    /// The discovery metadata; `metadata.issuer` is exactly the configured issuer.
    public let metadata: ProviderMetadata
    /// `authorization_response_iss_parameter_supported` (RFC 9207 §3): when true, every callback
    /// must carry `iss`.
    public let issuerParameterSupported: Bool
    /// Signet's `native_nonce_endpoint` (one-time nonces for native ID-token sign-in), when the
    /// server advertises one.
    public let nativeNonceEndpoint: URL?

    /// Configuration from metadata already in hand (no network).
    public init(metadata: ProviderMetadata, issuerParameterSupported: Bool, nativeNonceEndpoint: URL? = nil) {
        self.metadata = metadata
        self.issuerParameterSupported = issuerParameterSupported
        self.nativeNonceEndpoint = nativeNonceEndpoint
    }

    /// Fetches `{issuer}/.well-known/openid-configuration` and checks that its `issuer` equals
    /// `issuer` byte for byte (OIDC Discovery §4.3).
    public static func discover(issuer: String, http: OutboundHTTP) async throws(SignInError) -> ProviderConfiguration {
        guard let url = DiscoveryClient.discoveryURL(for: issuer) else { throw .discoveryFailed("the issuer is not an http(s) URL") }
        let response: OutboundResponse
        do {
            response = try await http.get(url, headers: ["Accept": "application/json"]).requireSuccess()
        } catch {
            throw .discoveryFailed("\(error)")
        }
        let metadata: ProviderMetadata
        do {
            metadata = try JSONDecoder().decode(ProviderMetadata.self, from: Data(response.body))
        } catch {
            throw .discoveryFailed("the discovery document is malformed")
        }
        guard metadata.issuer.utf8.elementsEqual(issuer.utf8) else {
            throw .issuerMismatch(expected: issuer, found: metadata.issuer)
        }
        guard metadata.tokenEndpoint != nil else { throw .discoveryFailed("the discovery document has no token_endpoint") }
        // RFC 9207 §3's flag and Signet's native nonce endpoint live beside the standard members
        // ProviderMetadata decodes.
        var flag = false
        var nativeNonceEndpoint: URL?
        if case .object(let object)? = try? JSONValue.parse(response.body) {
            if case .bool(let value)? = object["authorization_response_iss_parameter_supported"] { flag = value }
            if let text = object["native_nonce_endpoint"]?.stringValue, let url = URL(string: text),
               url.scheme == "https" || url.scheme == "http" {
                nativeNonceEndpoint = url
            }
        }
        return ProviderConfiguration(metadata: metadata, issuerParameterSupported: flag, nativeNonceEndpoint: nativeNonceEndpoint)
    }
}
