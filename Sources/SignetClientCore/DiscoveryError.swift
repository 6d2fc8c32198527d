/// Why provider metadata could not be obtained.
public enum DiscoveryError: Error, Sendable, Equatable {
    /// The issuer is not an absolute http(s) URL, or the discovery URL could not be built.
    case invalidIssuer
    /// The HTTP call failed (including non-200 statuses as `.badStatus`).
    case transport(OutboundError)
    /// The document is not JSON or lacks a required member.
    case malformedDocument
    /// The document's `issuer` differs from the expected issuer (OIDC Discovery §4.3).
    case issuerMismatch
    /// An endpoint the document names (`member`, such as `token_endpoint`) breaks `ProviderURLRule`.
    case insecureEndpoint(member: String, problem: String)
}
