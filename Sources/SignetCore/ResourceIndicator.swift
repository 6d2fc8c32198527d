import Foundation
import SignetWire

/// RFC 8707 resource indicators: the one shape rule, and which of them a client may be given.
///
/// A client gets only the resources its registration lists (`resources` in `signet.json`,
/// `signet clients add --resource`); a client that lists none may ask for none, so an access
/// token is never minted for an API the operator did not name for that client.
public enum ResourceIndicator {
    /// The longest resource URI accepted, in bytes.
    public static let maximumLength = 2048

    /// RFC 8707 §2: an absolute URI (with a host here) without a fragment.
    public static func isWellFormed(_ value: String) -> Bool {
        guard value.utf8.count <= maximumLength, !value.contains("#"), let url = URLComponents(string: value),
              url.scheme != nil, url.host?.isEmpty == false else { return false }
        return true
    }

    /// The most resources one request may name.
    public static let maximumCount = 8

    /// The `resource` parameters of a request by `client` (RFC 8707 §2: repeated to name several),
    /// checked: at most `maximumCount`, each well formed and in the client's allow-list, else
    /// `invalid_target`. Empty when there are none; duplicates are dropped.
    static func requested(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> [String] {
        let values = try bounded(parameters)
        var resources: [String] = []
        for resource in values where !resources.contains(resource) {
            guard isWellFormed(resource) else {
                throw OAuthError(.invalidTarget, "resource must be an absolute URI without a fragment.")
            }
            guard client.allowedResources.contains(resource) else {
                throw OAuthError(.invalidTarget, "The resource is not allowed for this client.")
            }
            resources.append(resource)
        }
        return resources
    }

    /// The `resource` values, refused before any other work when there are more than
    /// `maximumCount` (repeats included), so a hostile request costs nothing.
    private static func bounded(_ parameters: RequestParameters) throws(OAuthError) -> [String] {
        let values = parameters.all("resource")
        guard values.count <= maximumCount else {
            throw OAuthError(.invalidTarget, "Name at most \(maximumCount) resources.")
        }
        return values
    }

    /// The audiences of an access token issued from a grant of `granted` resources, for a token
    /// request that may name some of them with `resource`: RFC 8707 §2.2, they narrow the grant
    /// and never widen it (`invalid_target` for a resource the grant does not hold, or one the
    /// client is no longer allowed). Without the parameter, every granted resource the client is
    /// still allowed.
    static func narrowed(_ granted: [String], _ parameters: RequestParameters, client: Client) throws(OAuthError) -> [String] {
        let requested = try bounded(parameters)
        guard !requested.isEmpty else { return granted.filter(client.allowedResources.contains) }
        var audiences: [String] = []
        for resource in requested where !audiences.contains(resource) {
            guard granted.contains(resource), client.allowedResources.contains(resource) else {
                throw OAuthError(.invalidTarget, "The resource was not granted to this client.")
            }
            audiences.append(resource)
        }
        return audiences
    }
}
