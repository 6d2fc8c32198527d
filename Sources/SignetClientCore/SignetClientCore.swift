/// Relying-party logic shared by SignetKit, SignetFederation and SignetResource: outbound HTTP
/// with limits, discovery, JWKS caching, ID-token validation, the token client, PKCE.
public enum SignetClientCore {}
