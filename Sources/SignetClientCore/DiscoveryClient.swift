import Foundation

/// Fetches OpenID Connect Discovery documents.
public enum DiscoveryClient {
    /// The discovery URL for an issuer: `{issuer}/.well-known/openid-configuration` (OIDC
    /// Discovery §4.1: a trailing slash on the issuer is removed first).
    public static func discoveryURL(for issuer: String) -> URL? {
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/.well-known/openid-configuration"),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else { return nil }
        return url
    }

    /// Fetches and checks the metadata of `issuer`.
    ///
    /// - Parameter discoveryURL: fetch from here instead of the standard location (tests, or a
    ///   provider that publishes elsewhere); the `issuer` check is unchanged.
    /// - Throws: `DiscoveryError`; `.issuerMismatch` unless the document's `issuer` EXACTLY equals
    ///   `issuer` (OIDC Discovery §4.3), byte for byte; `.insecureEndpoint` when an endpoint it
    ///   names breaks `ProviderURLRule`, as a configured one would.
    public static func fetch(issuer: String, discoveryURL: URL? = nil, http: OutboundHTTP) async throws(DiscoveryError) -> ProviderMetadata {
        guard let url = discoveryURL ?? Self.discoveryURL(for: issuer) else { throw .invalidIssuer }
        let response: OutboundResponse
        do {
            response = try await http.get(url, headers: ["Accept": "application/json"]).requireSuccess()
        } catch {
            throw .transport(error)
        }
        let metadata: ProviderMetadata
        do {
            metadata = try JSONDecoder().decode(ProviderMetadata.self, from: Data(response.body))
        } catch {
            throw .malformedDocument
        }
        guard metadata.issuer.utf8.elementsEqual(issuer.utf8) else { throw .issuerMismatch }
        // A compromised document must not send the client secret or a code to plaintext or elsewhere unchecked.
        for (member, url) in metadata.endpoints {
            if let problem = ProviderURLRule.problem(url.absoluteString) { throw .insecureEndpoint(member: member, problem: problem) }
        }
        return metadata
    }
}
