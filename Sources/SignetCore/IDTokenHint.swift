import Foundation
import SignetJOSE

/// What a verified `id_token_hint` says. Only the verifier makes one (its memberwise
/// initializer is internal), so holding one means the hint was checked.
public struct IDTokenHint: Sendable, Equatable {
    /// `sub`.
    public let subject: String
    /// `aud`.
    public let audiences: [String]
    /// `sid`, if present.
    public let sessionID: String?
}

extension OwnTokenVerification {
    /// Verifies an ID token Signet issued, as a hint (OpenID Connect Core §3.1.2.1, RP-Initiated
    /// Logout §2): the signature with Signet's published keys, `typ` JWT (never an access token),
    /// `iss` exactly Signet's issuer, a `sub` and an `aud`. An expired token is accepted, as both
    /// specifications allow. Returns nil for anything else.
    public func idTokenHint(_ token: String) -> IDTokenHint? {
        guard let jws = try? verifier(types: ["JWT"], audience: nil, requireExp: false).verifySignature(token),
              let object = try? JSONValue.parse(jws.payload, maximumDepth: 32).objectValue else { return nil }
        let claims = JWTClaims(object)
        guard let iss = claims.iss, iss.utf8.elementsEqual(issuer.utf8),
              let subject = claims.sub, !subject.isEmpty,
              let audiences = try? claims.audiences(), !audiences.isEmpty else { return nil }
        return IDTokenHint(subject: subject, audiences: audiences, sessionID: claims["sid"]?.stringValue)
    }

    /// The subject of a valid hint whose audience includes `clientID`: the closure
    /// `AuthorizationEndpoint` needs.
    public func subjectOfIDTokenHint(_ token: String, clientID: String) -> String? {
        guard let hint = idTokenHint(token), hint.audiences.contains(clientID) else { return nil }
        return hint.subject
    }
}

extension AuthorizationServer {
    /// `OwnTokenVerification.idTokenHint` with the server's keys, issuer and clock.
    public func verifyIDTokenHint(_ token: String) -> IDTokenHint? { ownTokens.idTokenHint(token) }

    /// `OwnTokenVerification.subjectOfIDTokenHint` with the server's keys, issuer and clock.
    public func subjectOfIDTokenHint(_ token: String, clientID: String) -> String? {
        ownTokens.subjectOfIDTokenHint(token, clientID: clientID)
    }
}
