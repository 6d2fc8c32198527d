import Foundation

/// The one rule for a URL Signet calls or sends a browser to at an upstream provider, whether an
/// operator configured it or a discovery document named it (and for the other URLs a
/// configuration names, such as the brand's links): https, or http only on a loopback host (local
/// testing), so a client secret or code never travels in plaintext off the machine.
public enum ProviderURLRule {
    /// Why `text` is unusable as a provider URL, or nil.
    public static func problem(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            return "must be an absolute URL"
        }
        if url.fragment != nil { return "must not have a fragment" }
        if scheme == "https" { return nil }
        if scheme == "http", ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()) { return nil }
        return "must use https (http only on a loopback address)"
    }
}
