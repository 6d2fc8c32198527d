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

    /// The `resource` parameter of a request by `client`, checked: nil when absent; otherwise
    /// well formed and in the client's allow-list, or `invalid_target` (RFC 8707 §2).
    static func requested(_ parameters: RequestParameters, client: Client) throws(OAuthError) -> String? {
        guard let resource = try parameters.single("resource") else { return nil }
        guard isWellFormed(resource) else {
            throw OAuthError(.invalidTarget, "resource must be an absolute URI without a fragment.")
        }
        guard client.allowedResources.contains(resource) else {
            throw OAuthError(.invalidTarget, "The resource is not allowed for this client.")
        }
        return resource
    }

    /// The audiences of an access token issued from a grant of `granted` resources, for a token
    /// request that may name one `resource`: RFC 8707 §2.2, it narrows the grant to that one and
    /// never widens it (`invalid_target` for a resource the grant does not hold, or one the
    /// client is no longer allowed). Without the parameter, every granted resource.
    static func narrowed(_ granted: [String], _ parameters: RequestParameters, client: Client) throws(OAuthError) -> [String] {
        guard let resource = try parameters.single("resource") else {
            return granted.filter(client.allowedResources.contains)
        }
        guard granted.contains(resource), client.allowedResources.contains(resource) else {
            throw OAuthError(.invalidTarget, "The resource was not granted to this client.")
        }
        return [resource]
    }
}
