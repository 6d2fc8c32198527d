// Apple platforms only: on Linux this file compiles to nothing (LoopbackListener and
// ExternalBrowser are the desktop user agent there). Not built in this repository's CI.
#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
import SignetKit

/// Presents the authorization URL in `ASWebAuthenticationSession` (the system's sign-in sheet,
/// RFC 8252 §8.12: not a web view) and hands the callback URL to SignetKit.
@MainActor
public final class WebAuthenticationSessionPresenter: NSObject {
    /// The window the sheet is shown over.
    public let anchor: ASPresentationAnchor
    /// True: no shared cookies with Safari (no single sign-on, no "wants to use … to sign in" prompt).
    public let prefersEphemeralSession: Bool

    /// A presenter over `anchor`.
    public init(anchor: ASPresentationAnchor, prefersEphemeralSession: Bool = false) {
        self.anchor = anchor
        self.prefersEphemeralSession = prefersEphemeralSession
    }

    /// The whole sign-in: `beginSignIn`, the sheet, `completeSignIn`.
    ///
    /// - Parameter callbackURLScheme: the scheme of the registered redirect URI (for a claimed
    ///   https redirect on iOS 17.4+, use the system's https callback instead).
    /// - Parameter organization: the organization to sign in for (`SignInClient.beginSignIn`).
    public func signIn(client: SignInClient, callbackURLScheme: String, organization: String? = nil,
                       extraParameters: [(String, String)] = []) async throws(SignInError) -> AuthState {
        let request = try client.beginSignIn(organization: organization, extraParameters: extraParameters)
        let callback: URL
        do throws(SignInError) {
            callback = try await present(request.authorizationURL, callbackURLScheme: callbackURLScheme)
        } catch {
            if error == .cancelled { client.cancelSignIn() }
            throw error
        }
        return try await client.completeSignIn(callback: callback)
    }

    /// Shows `url` and returns the callback URL the sheet captured.
    ///
    /// - Throws: `.cancelled` when the user closed the sheet (or it could not start);
    ///   `.network` with the system's description for any other failure.
    public func present(_ url: URL, callbackURLScheme: String) async throws(SignInError) -> URL {
        let result: Result<URL, SignInError> = await withCheckedContinuation { continuation in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackURLScheme) { callback, error in
                if let callback {
                    continuation.resume(returning: .success(callback))
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    continuation.resume(returning: .failure(.cancelled))
                } else {
                    continuation.resume(returning: .failure(.network(error.map { String(describing: $0) } ?? "no callback")))
                }
            }
            session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
            session.presentationContextProvider = self
            if !session.start() {
                continuation.resume(returning: .failure(.cancelled))
            }
        }
        return try result.get()
    }
}

extension WebAuthenticationSessionPresenter: @preconcurrency ASWebAuthenticationPresentationContextProviding {
    /// The window to show the sheet over.
    public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        anchor
    }
}
#endif
