import Foundation
import SignetStore
import SignetWire

/// What kind of application a client is, as its developer registered it (the developer portal's
/// "Application Type"): stored with the client (`application_type` in its record's `extra`), and
/// the source of the redirect-URI rules the console shows and the registration applies.
public enum ApplicationType: String, CaseIterable, Sendable {
    /// A mobile or desktop app: a public client with PKCE (RFC 8252 §8.4: no secret).
    case native
    /// A web app with a server: the code flow, usually confidential.
    case web
    /// A backend calling APIs for itself: confidential, `client_credentials` (RFC 6749 §4.4).
    case service
    /// An API that checks tokens (introspection, RFC 7662): confidential, no scope of its own.
    case api

    /// The type of a client registered before types were stored: public is native; the code flow
    /// is web; `client_credentials` without a scope is an API, else a service.
    public static func inferred(isPublic: Bool, grantTypes: [String], scopes: [String]) -> ApplicationType {
        if isPublic { return .native }
        if grantTypes.contains(GrantType.authorizationCode.rawValue) { return .web }
        return scopes.isEmpty ? .api : .service
    }

    /// Whether its users reach it through a browser redirect (it registers redirect URIs).
    public var takesRedirects: Bool { self == .native || self == .web }

    /// What the type asks of the rest of a registration, as field and message.
    func problem(isPublic: Bool, redirectURIs: [String]) -> (field: String, message: String)? {
        switch self {
        case .native where !isPublic:
            // RFC 8252 §8.4: a secret shipped in an app is no secret.
            return ("application_type", "a native app is a public client (RFC 8252 §8.4); register it without a secret")
        case .service, .api:
            if isPublic { return ("application_type", "a \(rawValue) app is a confidential client: it authenticates with its secret") }
            if !redirectURIs.isEmpty { return ("redirect_uris", "a \(rawValue) app signs no one in, so it takes no redirect URIs") }
            return nil
        default:
            return nil
        }
    }
}
