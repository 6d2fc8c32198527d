import Foundation
import SignetKit
import SignetTesting
import Testing

/// `SignInError` is a struct around a private enum: apps match it the way they match Swift's own
/// evolving errors — static members in `catch`, `code` in a `switch` with a `default` — and read
/// what the server said from properties.
@Suite(.endToEndLimit) struct SignInErrorTests {
    /// What an app writes: an untyped `catch` chain, then a `switch` over the code with a `default`.
    static func appHandles(_ run: () throws -> Void) -> String {
        do {
            try run()
            return "ok"
        } catch SignInError.cancelled, SignInError.timedOut {
            return "gave up"
        } catch let error as SignInError where error.code == .authorizationError {
            return "refused: \(error.oauthError ?? "?")"
        } catch let error as SignInError {
            switch error.code {
            case .stateMismatch, .missingState: return "forged"
            case .notSignedIn: return "sign in again"
            case .network: return "offline: \(error.detail ?? "?")"
            default: return "other: \(error.code)"
            }
        } catch {
            return "not a sign-in error"
        }
    }

    @Test func anAppStyleCatchAndSwitchWithADefaultMatch() {
        #expect(Self.appHandles { throw SignInError.cancelled } == "gave up")
        #expect(Self.appHandles { throw SignInError.timedOut } == "gave up")
        #expect(Self.appHandles { throw SignInError.authorizationError(code: "access_denied", description: nil) } == "refused: access_denied")
        #expect(Self.appHandles { throw SignInError.stateMismatch } == "forged")
        #expect(Self.appHandles { throw SignInError.missingState } == "forged")
        #expect(Self.appHandles { throw SignInError.notSignedIn } == "sign in again")
        #expect(Self.appHandles { throw SignInError.network("connection refused") } == "offline: connection refused")
        #expect(Self.appHandles { throw SignInError.malformedCallback } == "other: malformedCallback")
        #expect(Self.appHandles { throw CocoaError(.fileNoSuchFile) } == "not a sign-in error")
        #expect(Self.appHandles {} == "ok")
    }

    @Test func typedThrowsMatchStaticMembersAndCodes() {
        func fail(_ error: SignInError) throws(SignInError) { throw error }
        func handle(_ error: SignInError) -> String {
            do throws(SignInError) {
                try fail(error)
                return "ok"
            } catch .cancelled {
                return "cancelled"
            } catch {
                switch error {
                case .stateMismatch: return "forged"
                default: break
                }
                switch error.code {
                case .tokenError: return "refused: \(error.oauthError ?? "?")"
                default: return "other"
                }
            }
        }
        #expect(handle(.cancelled) == "cancelled")
        #expect(handle(.stateMismatch) == "forged")
        #expect(handle(.tokenError(code: "invalid_grant", description: "used")) == "refused: invalid_grant")
        #expect(handle(.missingCode) == "other")
    }

    @Test func equalityPatternsAndTheInformationCarried() {
        let refused = SignInError.tokenError(code: "invalid_grant", description: "The code was used.", uri: "https://id.example.com/e")
        #expect(refused.code == .tokenError)
        #expect(refused.oauthError == "invalid_grant")
        #expect(refused.oauthErrorDescription == "The code was used.")
        #expect(refused.oauthErrorURI == "https://id.example.com/e")
        #expect(refused.detail == nil)
        #expect(refused != .tokenError(code: "invalid_grant", description: nil))
        #expect(!(SignInError.stateMismatch ~= refused), "a pattern matches only an equal error")
        #expect(!(SignInError.stateMismatch ~= CocoaError(.fileNoSuchFile)))
        #expect(SignInError.tokenError(code: "invalid_grant", description: nil) ~= SignInError.tokenError(code: "invalid_grant", description: nil))

        let storage = SignInError.storage("the disk is full")
        #expect(storage.detail == "the disk is full")
        #expect(storage.oauthError == nil)
        #expect(SignInError.missingState.detail == nil)
        let issuers = SignInError.issuerMismatch(expected: "https://a.example", found: "https://b.example").mismatchedIssuer
        #expect(issuers?.expected == "https://a.example" && issuers?.found == "https://b.example")

        // The text is the description, for `print` and for `localizedDescription` alike.
        #expect(refused.description == "the token endpoint refused: invalid_grant (The code was used.)")
        #expect(refused.localizedDescription == refused.description)
        #expect(SignInError.stateMismatch.errorDescription == "the callback's state does not match this sign-in")
        #expect(SignInError.Code.stateMismatch.description == "stateMismatch")
    }

    @Test func theCallbackKeepsTheErrorURI() throws {
        let now = Date()
        let pending = PendingSignIn(codeVerifier: "v", state: "s-1", nonce: "n", redirectURI: "http://127.0.0.1:5000/cb",
                                    createdAt: now, expiresAt: now + 600)
        let url = try #require(URL(string: "http://127.0.0.1:5000/cb?state=s-1&error=access_denied&error_description=No%20thanks"
            + "&error_uri=https%3A%2F%2Fid.example.com%2Fhelp"))
        #expect(throws: SignInError.authorizationError(code: "access_denied", description: "No thanks", uri: "https://id.example.com/help")) {
            _ = try AuthorizationCallback.validate(url, pending: pending, issuer: "https://id.example.com", issuerParameterRequired: false)
        }
    }
}
