// Apple platforms only: on Linux this file compiles to nothing (SignetKit's tests put a software
// authenticator behind `PasskeyAuthenticator` instead). Not built in this repository's CI.
#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation
import SignetKit

/// `PasskeyAuthenticator` over `ASAuthorizationPlatformPublicKeyCredentialProvider` (iOS 16,
/// macOS 13): the system's passkey sheet for the RP ID in Signet's options. The app's Associated
/// Domains entitlement must list `webcredentials:<RP ID>` and Signet's
/// `/.well-known/apple-app-site-association` the app (`native_apps.apple`).
///
/// ```swift
/// let session = try await client.signInWithPasskey(using: PlatformPasskeyAuthenticator(anchor: window))
/// let added = try await client.addPasskey(to: session, using: PlatformPasskeyAuthenticator(anchor: window))
/// ```
@available(iOS 16.0, macOS 13.0, *)
public final class PlatformPasskeyAuthenticator: PasskeyAuthenticator, @unchecked Sendable {
    /// The window the sheet is shown over.
    public let anchor: ASPresentationAnchor

    /// An authenticator presenting over `anchor`.
    public init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    /// See `PasskeyAuthenticator.assertion(for:)`: a discoverable-credential request with
    /// user verification required.
    public func assertion(for options: PasskeyAssertionOptions) async throws -> PasskeyAssertion {
        let authorization = try await perform { () -> ASAuthorizationRequest in
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyID)
            let request = provider.createCredentialAssertionRequest(challenge: options.challenge)
            request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(rawValue: options.userVerification)
            request.allowedCredentials = options.allowedCredentialIDs.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
            return request
        }
        guard let credential = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else {
            throw SignInError.authenticatorFailed("the platform returned no passkey assertion")
        }
        return PasskeyAssertion(credentialID: credential.credentialID, clientDataJSON: credential.rawClientDataJSON,
                                authenticatorData: credential.rawAuthenticatorData, signature: credential.signature,
                                userHandle: credential.userID)
    }

    /// See `PasskeyAuthenticator.attestation(for:)`.
    public func attestation(for options: PasskeyRegistrationOptions) async throws -> PasskeyAttestation {
        let authorization = try await perform { () -> ASAuthorizationRequest in
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyID)
            let request = provider.createCredentialRegistrationRequest(challenge: options.challenge, name: options.userName,
                                                                       userID: options.userID)
            request.userVerificationPreference = ASAuthorizationPublicKeyCredentialUserVerificationPreference(rawValue: options.userVerification)
            return request
        }
        guard let credential = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
              let attestationObject = credential.rawAttestationObject else {
            throw SignInError.authenticatorFailed("the platform returned no passkey registration")
        }
        return PasskeyAttestation(credentialID: credential.credentialID, clientDataJSON: credential.rawClientDataJSON,
                                  attestationObject: attestationObject, transports: ["internal", "hybrid"])
    }

    /// Runs one `ASAuthorizationController` request on the main actor and waits for its delegate.
    private func perform(_ makeRequest: @escaping @MainActor () -> ASAuthorizationRequest) async throws -> ASAuthorization {
        try await MainActor.run { [anchor] in Delegate(anchor: anchor) }.run(makeRequest)
    }

    /// The controller's delegate and presentation provider; keeps itself alive until it answers.
    @MainActor
    private final class Delegate: NSObject, ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
        let anchor: ASPresentationAnchor
        private var continuation: CheckedContinuation<ASAuthorization, any Error>?
        private var controller: ASAuthorizationController?

        init(anchor: ASPresentationAnchor) { self.anchor = anchor }

        func run(_ makeRequest: @MainActor () -> ASAuthorizationRequest) async throws -> ASAuthorization {
            try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                let controller = ASAuthorizationController(authorizationRequests: [makeRequest()])
                controller.delegate = self
                controller.presentationContextProvider = self
                self.controller = controller
                controller.performRequests()
            }
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
            finish(.success(authorization))
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            if let error = error as? ASAuthorizationError, error.code == .canceled {
                finish(.failure(SignInError.cancelled))
            } else {
                finish(.failure(SignInError.authenticatorFailed((error as NSError).domain + " \((error as NSError).code)")))
            }
        }

        private func finish(_ result: Result<ASAuthorization, any Error>) {
            continuation?.resume(with: result)
            continuation = nil
            controller = nil
        }
    }
}
#endif
