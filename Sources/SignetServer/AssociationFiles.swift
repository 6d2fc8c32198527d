import Foundation
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

extension Routes {
    /// Apple's associated-domains file (passkeys and universal links of `native_apps.apple`).
    public static let appleAppSiteAssociation = "/.well-known/apple-app-site-association"
    /// Google's Digital Asset Links statements (passkeys and app links of `native_apps.android`).
    public static let assetLinks = "/.well-known/assetlinks.json"
}

/// The platform association files built from `native_apps` (docs/passkeys.md): what lets an
/// iOS or Android app use this domain's passkeys and open its claimed https redirect URIs.
/// Both are served as `application/json` at their exact paths, never redirected (Apple's CDN and
/// Android's verifier do not follow redirects), and 404 when no app of that platform is configured.
struct AssociationFiles: Sendable {
    let apple: [SignetConfiguration.AppleApp]
    let android: [SignetConfiguration.AndroidApp]
    let issuerHost: String
    let clients: any ClientStore

    init(configuration: SignetConfiguration, clients: any ClientStore) {
        apple = configuration.nativeApps.apple
        android = configuration.nativeApps.android
        issuerHost = configuration.issuerHost ?? ""
        self.clients = clients
    }

    /// The paths of the claimed https redirect URIs on this domain of first-party public clients
    /// (native apps): the URLs a universal link must open in the app (RFC 8252 §7.2).
    func claimedPaths() throws -> [String] {
        var paths: [String] = []
        for client in try clients.allClients() where client.isPublic && client.firstParty {
            for uri in client.redirectURIs {
                guard let url = URLComponents(string: uri), url.scheme == "https", url.host?.lowercased() == issuerHost else { continue }
                let path = url.path.isEmpty ? "/" : url.path
                if !paths.contains(path) { paths.append(path) }
            }
        }
        return paths.sorted()
    }

    /// `apple-app-site-association`: `webcredentials.apps` and `applinks.details` with
    /// `appIDs` and one `components` entry per claimed path (Apple's "Supporting associated
    /// domains" format, iOS 13 and later).
    func appleDocument() throws -> JSONValue? {
        guard !apple.isEmpty else { return nil }
        let ids = JSONValue.array(apple.map { .string($0.appID) })
        var document: [String: JSONValue] = ["webcredentials": ["apps": ids]]
        let paths = try claimedPaths()
        if !paths.isEmpty {
            let components = JSONValue.array(paths.map { ["/": .string($0)] })
            document["applinks"] = ["details": .array([["appIDs": ids, "components": components]])]
        }
        return .object(document)
    }

    /// `assetlinks.json`: one statement per app with `get_login_creds` (passkeys and passwords
    /// through Credential Manager) and `handle_all_urls` (verified app links).
    var androidDocument: JSONValue? {
        guard !android.isEmpty else { return nil }
        return .array(android.map { app in
            ["relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"],
             "target": ["namespace": "android_app", "package_name": .string(app.package),
                        "sha256_cert_fingerprints": .array(app.sha256CertFingerprints.map { .string($0) })]]
        })
    }

    static func response(_ document: JSONValue?) -> HTTPResponse {
        guard let document else {
            return ErrorRenderer.json(ErrorResponse(error: "not_found", errorDescription: "No native apps are configured."), status: 404)
        }
        var response = HTTPResponse.json(document.serialized())
        response.headers.set("Content-Type", "application/json")
        response.headers.set("Cache-Control", "public, max-age=3600")
        return response
    }
}
