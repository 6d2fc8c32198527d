import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SignetJOSE
import SignetServer

/// An OpenID provider written independently of Signet: `oidc-provider-mock` from PyPI (Flask and
/// Authlib), run as `python -m oidc_provider_mock` by `PackagePaths.python` on `127.0.0.1` with a
/// free port. `make pydeps` installs it into `.build/pytools`; a missing package is an error with
/// instructions, never a silent skip.
///
/// What it is, read from its source (0.3.x): issuer `http://127.0.0.1:PORT` (from the request's
/// host), discovery at the standard place, RS256 ID tokens whose header carries no `kid` (its JWKS
/// holds one key), the ID token's claims filtered by scope (`email`, `email_verified` need the
/// `email` scope, and so does `/userinfo`), a nonce echoed (required with `requireNonce`), no
/// PKCE (a `code_challenge` is ignored). Its authorization page is a form where the user's `sub` is typed (or a Deny button);
/// users and their claims are set with `PUT /users/{sub}`, clients registered with
/// `POST /oauth2/clients` (with `requireRegistration` only registered clients, their exact
/// redirect URIs and their secret are accepted).
public final class IndependentProvider: Sendable {
    /// `http://127.0.0.1:PORT`, the provider's issuer.
    public let issuer: String
    /// The same URL, for requests and `FormBrowser.trust`.
    public let baseURL: URL
    /// The process, with its access log.
    private let service: HelperService

    /// The pinned package, as `make pydeps` installs it.
    public static let package = "oidc-provider-mock==0.3.4"

    private init(service: HelperService) throws {
        guard let baseURL = URL(string: service.baseURL) else { throw TestingError("bad port \(service.port)") }
        self.issuer = service.baseURL
        self.baseURL = baseURL
        self.service = service
    }

    /// Starts the provider and waits until it serves its discovery document.
    ///
    /// - Parameters:
    ///   - requireRegistration: only clients registered with `registerClient` are accepted.
    ///   - requireNonce: authorization requests without `nonce` are refused.
    public static func start(requireRegistration: Bool = true, requireNonce: Bool = true,
                             startTimeoutSeconds: Double = 30) async throws -> IndependentProvider {
        try RealPart.oidcProviderMock.use()
        let python = PackagePaths.python
        do {
            return try IndependentProvider(service: try await HelperService.start(
                readyPath: "/.well-known/openid-configuration", seconds: startTimeoutSeconds) { port in
                try BackgroundProcess(python, [
                    "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", String(port),
                    "--require-registration", requireRegistration ? "true" : "false",
                    "--require-nonce", requireNonce ? "true" : "false",
                ], environment: ["NO_COLOR": "1", "PYTHONUNBUFFERED": "1"])
            })
        } catch let failure as HelperService.StartFailure {
            if failure.stderr.contains("No module named") {
                throw TestingError("\(python) cannot run oidc_provider_mock: \(failure.stderr)\nInstall it: make pydeps "
                    + "(or .build/pytools/bin/pip install \(package)), or set SIGNET_PYTHON to a Python that has it.")
            }
            throw TestingError("oidc-provider-mock did not serve its discovery document "
                + "(\(failure.timedOut ? "timed out" : "exited")): \(failure.stderr)")
        }
    }

    /// `baseURL` + `path`.
    public func url(_ path: String) -> URL {
        URL(string: issuer + path) ?? baseURL.appendingPathComponent(path)
    }

    /// Registers a client (RFC 7591 style, `POST /oauth2/clients`) and returns the id and secret
    /// the provider made up.
    public func registerClient(redirectURIs: [String], authenticationMethod: String = "client_secret_basic") async throws
        -> (clientID: String, clientSecret: String) {
        let body: JSONValue = ["redirect_uris": .array(redirectURIs.map(JSONValue.string)),
                               "token_endpoint_auth_method": .string(authenticationMethod)]
        let response = try await HTTPTestClient().post(url("/oauth2/clients"), json: body)
        guard response.status == 201, let object = try? response.json(),
              let id = object["client_id"]?.stringValue, let secret = object["client_secret"]?.stringValue else {
            throw TestingError("oidc-provider-mock refused the client registration: \(response.status) \(response.text.prefix(300))")
        }
        return (id, secret)
    }

    /// Creates or replaces the user `sub` with these claims (`PUT /users/{sub}`): they go into
    /// ID tokens and userinfo, standard claims only for the scopes that cover them. `sub` is
    /// limited to letters, digits, `-`, `_` and `.` (it goes into the path as it is).
    public func setUser(_ sub: String, claims: [String: JSONValue]) async throws {
        guard !sub.isEmpty, sub.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw TestingError("use a plain sub (letters, digits, - _ .)")
        }
        let response = try await HTTPTestClient().send(method: "PUT", url: url("/users/" + sub), body: JSONValue.object(claims).serialized(),
                                                       headers: ["Content-Type": "application/json"])
        guard response.status == 204 else {
            throw TestingError("oidc-provider-mock refused the user: \(response.status) \(response.text.prefix(300))")
        }
    }

    /// How many `method path` requests (any query) the provider has logged with `status`, from
    /// its access log (uvicorn logs a request after answering it, so callers that need a request
    /// seen use `waitForRequests`).
    public func requestCount(_ method: String, _ path: String, status: Int) -> Int {
        service.process.stderr.split(separator: "\n").filter { line in
            line.contains("uvicorn.access") && line.hasSuffix("\" \(status)")
                && (line.contains("\"\(method) \(path) HTTP/") || line.contains("\"\(method) \(path)?"))
        }.count
    }

    /// Waits until `requestCount` reaches `count` (or `seconds` pass) and returns the count.
    public func waitForRequests(_ method: String, _ path: String, status: Int, count: Int = 1, seconds: Double = 5) async -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        while requestCount(method, path, status: status) < count, Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return requestCount(method, path, status: status)
    }

    /// Stops the process. It holds nothing worth a graceful end (all its state is in memory), and
    /// uvicorn's graceful shutdown waits for every idle keep-alive connection of the test's HTTP
    /// clients to close, so it is killed.
    public func stop() async { await service.stop(signal: SIGKILL) }
}
