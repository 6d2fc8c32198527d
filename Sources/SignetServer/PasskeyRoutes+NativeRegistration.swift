import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

extension Routes {
    /// Native passkey registration, step 1: `Authorization: Bearer` (an access token with
    /// `passkeys:write` from a first-party app) in, `{"publicKey": PublicKeyCredentialCreationOptionsJSON}` out.
    public static let passkeyNativeRegisterOptions = "/passkeys/native/register/options"
    /// Step 2: the same token and the platform's `RegistrationResponseJSON` in, `{"id", "name"}` out.
    public static let passkeyNativeRegisterFinish = "/passkeys/native/register/finish"
}

/// A signed-in app adds a passkey for its user without a browser: the ceremony is bound to the
/// token's user and grant, so only the app session that asked for the options can finish it.
extension PasskeyRoutes {
    /// The user an access token may add a passkey for, and the ceremony's binding; nil when the
    /// request carries no token (RFC 6750 §3.1: the bare challenge). `invalid_token` (401) for
    /// a token `UserAccessTokenCheck` refuses, `insufficient_scope` (403) without
    /// `passkeys:write` or from a client that is not first-party.
    func registeringUser(_ request: HTTPRequest, tokens: UserAccessTokenCheck) throws(OAuthError)
        -> (checked: UserAccessTokenCheck.Checked, binding: [UInt8])? {
        guard let token = try SignetApplication.bearerToken(of: request) else { return nil }
        let checked = try tokens.check(token)
        guard checked.scope.contains(Scope.passkeysWrite) else {
            throw OAuthError(.insufficientScope, "The access token was not granted the \(Scope.passkeysWrite) scope.")
        }
        let client = try Self.mapped("native passkey client lookup") { try checked.clientID.flatMap { try interactive.server.clients.client(id: $0) } }
        guard client?.isFirstParty == true else {
            throw OAuthError(.insufficientScope, "Only a first-party app may add a passkey.")
        }
        let grant = checked.claims["gid"]?.stringValue ?? ""
        return (checked, ceremonies.binding("native-register", checked.user.id, grant))
    }

    /// RFC 9470 §3: a token whose sign-in is older than `FreshSignIn.maximumAge`, or below the
    /// account's level, gets 401 `insufficient_user_authentication` with `max_age` (and
    /// `acr_values` for the level); nil when the token's sign-in is fresh (its `auth_time` and
    /// `amr`, RFC 9068 §2.2.3.1). The ceremony is bound to the grant and expires within the
    /// window, so checking at the options carries to the finish.
    func stepUpNeeded(_ checked: UserAccessTokenCheck.Checked, _ errors: ErrorRenderer) throws(OAuthError) -> HTTPResponse? {
        let authTime = checked.claims["auth_time"]?.intValue.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        let amr = checked.claims["amr"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let verdict = try Self.mapped("native passkey freshness") {
            try FreshSignIn(server: interactive.server).verdict(userID: checked.user.id, authTime: authTime, amr: amr)
        }
        let maxAge = Int(FreshSignIn.maximumAge)
        switch verdict {
        case .fresh: return nil
        case .stale:
            return errors.insufficientUserAuthentication("Adding a passkey needs a sign-in in the last \(maxAge) seconds.", acrValues: [], maxAge: maxAge)
        case .belowLevel(let needed):
            return errors.insufficientUserAuthentication("Adding a passkey needs a sign-in at the account's level.", acrValues: [needed.acr],
                                                         maxAge: maxAge)
        }
    }

    /// `POST /passkeys/native/register/options`.
    func nativeRegisterOptions(_ request: HTTPRequest, _ errors: ErrorRenderer, tokens: UserAccessTokenCheck) throws(OAuthError) -> HTTPResponse {
        guard let (checked, binding) = try registeringUser(request, tokens: tokens) else { return errors.missingBearerToken() }
        if let stepUp = try stepUpNeeded(checked, errors) { return stepUp }
        if let limited = try rateLimited(request, errors) { return limited }
        return try Self.mapped("native passkey registration options") {
            OAuthResponses.json(["publicKey": try ceremonies.registrationOptions(user: checked.user, binding: binding, context: "")])
        }
    }

    /// `POST /passkeys/native/register/finish`; the notice is mailed in the app's `Accept-Language`.
    func nativeRegisterFinish(_ request: HTTPRequest, _ errors: ErrorRenderer, tokens: UserAccessTokenCheck) throws(OAuthError) -> HTTPResponse {
        guard let (_, binding) = try registeringUser(request, tokens: tokens) else { return errors.missingBearerToken() }
        let body = try Self.jsonBody(request)
        let language = PageLanguage.preferred(acceptLanguage: request.headers["Accept-Language"])
        return try Self.mapped("native passkey registration") {
            let stored = try ceremonies.finishRegistration(body, binding: binding, name: "", language: language)
            return OAuthResponses.json(["id": .string(Base64URL.encode(stored.id)), "name": .string(stored.name)])
        }
    }
}
