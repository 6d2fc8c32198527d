import Foundation
import SignetClientCore
import SignetCrypto
import SignetJOSE
import SignetWire

extension SignInClient {
    var pendingKey: String { configuration.storageKeyPrefix + "-pending" }
    var tokensKey: String { configuration.storageKeyPrefix + "-tokens" }

    /// Validates a token response and turns it into stored tokens.
    ///
    /// - Parameters:
    ///   - nonce: the nonce the ID token must carry (sign-in); nil for a refresh, where the ID
    ///     token is optional and its `sub` must stay the same (OIDC Core §12.2).
    ///   - previous: the tokens being refreshed.
    func makeTokens(from response: TokenResponse, nonce: String?, previous: StoredTokens?) async throws(SignInError) -> StoredTokens {
        guard response.tokenType.lowercased() == "bearer" || response.tokenType.lowercased() == "dpop" else {
            throw .invalidTokenResponse("token_type \(response.tokenType) is not supported")
        }
        var subject = previous?.subject
        var claims = previous?.claims ?? [:]
        if let idToken = response.idToken {
            let validated = try await validateIDToken(idToken, nonce: nonce, accessToken: response.accessToken)
            if let previous, validated.subject != previous.subject {
                throw .invalidIDToken("the refreshed ID token names another user")
            }
            subject = validated.subject
            claims = Self.displayClaims(validated.claims)
        } else if nonce != nil {
            throw .invalidTokenResponse("no id_token in the response to an openid request")
        }
        guard let subject else { throw .invalidTokenResponse("no subject") }
        let lifetime = response.expiresIn > 0 ? TimeInterval(response.expiresIn) : 300
        return StoredTokens(accessToken: response.accessToken, accessTokenExpiresAt: clock().addingTimeInterval(lifetime),
                            refreshToken: response.refreshToken ?? previous?.refreshToken,
                            idToken: response.idToken ?? previous?.idToken,
                            scope: response.scope ?? previous?.scope, subject: subject, claims: claims)
    }

    /// OIDC Core §3.1.3.7 through SignetClientCore's validator, with this client as the audience.
    func validateIDToken(_ token: String, nonce: String?, accessToken: String) async throws(SignInError) -> ValidatedIDToken {
        let policy = IDTokenPolicy(issuer: configuration.issuer, audiences: [configuration.clientID],
                                   nonce: nonce.map { .equals($0) } ?? .none,
                                   allowedAlgorithms: [.rs256, .es256, .ps256, .edDSA],
                                   leeway: configuration.leeway, clock: clock)
        // OIDC Core §3.1.3.8: at_hash is optional in the code flow, and checked when present.
        let checkAtHash = Self.hasClaim("at_hash", in: token)
        do {
            return try await IDTokenValidator(policy: policy, keys: keys).validate(token, accessToken: checkAtHash ? accessToken : nil)
        } catch {
            throw .invalidIDToken(Self.describe(error))
        }
    }

    /// Whether the (not yet verified) payload of a compact JWS has claim `name`; only used to
    /// decide which checks apply, never to trust a value.
    static func hasClaim(_ name: String, in token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
              case .object(let object)? = try? JSONValue.parse(payload) else { return false }
        return object[name] != nil
    }

    /// The string claims worth showing (`email`, `name`, …) and `acr` (what the sign-in met, for step-up).
    static func displayClaims(_ claims: JWTClaims) -> [String: String] {
        var result: [String: String] = [:]
        for name in ["email", "name", "preferred_username", "given_name", "family_name", "acr"] {
            if let value = claims[name]?.stringValue { result[name] = value }
        }
        if let verified = ValidatedIDToken.flexibleBool(claims["email_verified"]) { result["email_verified"] = verified ? "true" : "false" }
        return result
    }

    static func describe(_ error: IDTokenError) -> String {
        switch error {
        case .malformed: "malformed"
        case .algorithmNotAllowed: "algorithm not allowed"
        case .key(let why): "no key for its kid (\(why))"
        case .jose(let why): "\(why)"
        case .wrongIssuer: "wrong iss"
        case .wrongAudience: "wrong aud"
        case .wrongAuthorizedParty: "wrong azp"
        case .missingSubject: "no sub"
        case .missingTimeClaim: "no exp or iat"
        case .expired: "expired"
        case .badIssuedAt: "iat out of range"
        case .missingNonce: "no nonce"
        case .nonceMismatch: "nonce mismatch"
        case .atHashMismatch: "at_hash mismatch"
        }
    }

    static func map(_ error: TokenClientError) -> SignInError {
        switch error {
        case .oauth(let body, _): .tokenError(code: body.error, description: body.errorDescription, uri: body.errorURI)
        case .transport(let why): .network("\(why)")
        case .malformedResponse(let status): .invalidTokenResponse("malformed response (HTTP \(status))")
        }
    }

    func save<T: Encodable>(_ value: T, as key: String) throws(SignInError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            try storage.write(key, Array(try encoder.encode(value)))
        } catch let error as TokenStorageError {
            throw .storage(error.message)
        } catch {
            throw .storage("cannot encode")
        }
    }

    func load<T: Decodable>(_ key: String) throws(SignInError) -> T? {
        let bytes: [UInt8]?
        do { bytes = try storage.read(key) } catch { throw .storage(error.message) }
        guard let bytes else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(T.self, from: Data(bytes))
    }

    /// Connects `AuthState` to this client.
    struct Backend: AuthStateBackend {
        let client: SignInClient

        func refresh(_ tokens: StoredTokens, request: RefreshRequest) async throws(SignInError) -> RefreshOutcome {
            guard let refreshToken = tokens.refreshToken else { throw .notSignedIn }
            let response: TokenResponse
            do {
                response = try await client.tokenClient.refresh(refreshToken, scope: request.scope?.joined(separator: " "),
                                                                resource: request.resource)
            } catch {
                throw SignInClient.map(error)
            }
            return await client.refreshedTokens(from: response, previous: tokens, request: request)
        }

        func revoke(_ tokens: StoredTokens) async throws(SignInError) -> Bool {
            guard let endpoint = client.provider.metadata.revocationEndpoint else { return false }
            let token = tokens.refreshToken ?? tokens.accessToken
            do {
                try await client.tokenClient.revoke(token, tokenTypeHint: tokens.refreshToken == nil ? "access_token" : "refresh_token",
                                                    endpoint: endpoint)
            } catch {
                throw SignInClient.map(error)
            }
            return true
        }

        func deleteAccount(accessToken: String) async throws(SignInError) {
            guard let url = URL(string: client.configuration.issuer + "/account") else { throw .network("bad issuer URL") }
            let response: OutboundResponse
            do {
                response = try await client.http.send(method: "DELETE", url: url, body: nil,
                                                      headers: ["Authorization": "Bearer \(accessToken)", "Accept": "application/json"])
            } catch {
                throw .network("\(error)")
            }
            if response.status == 204 || response.status == 200 { return }
            // RFC 6750 §3.1: 401 invalid_token, 403 insufficient_scope, with a JSON body.
            if [400, 401, 403].contains(response.status),
               let body = try? JSONValue.parse(response.body, maximumDepth: 4).objectValue, let code = body["error"]?.stringValue {
                throw .accountDeletionRefused(code: code, description: body["error_description"]?.stringValue)
            }
            throw .network("DELETE /account answered \(response.status)")
        }

        func save(_ tokens: StoredTokens?) throws(SignInError) {
            if let tokens {
                try client.save(tokens, as: client.tokensKey)
            } else {
                do { try client.storage.remove(client.tokensKey) } catch { throw .storage(error.message) }
            }
        }

        func load() throws(SignInError) -> StoredTokens? { try client.load(client.tokensKey) }

        func now() -> Date { client.clock() }
    }

    /// The tokens after a refresh response. Whatever check fails, the rotated refresh token is
    /// kept (the old one is spent: RFC 9700 §4.14.2 reuse would revoke the family); the new
    /// access and ID tokens are taken only when every check passed.
    func refreshedTokens(from response: TokenResponse, previous: StoredTokens, request: RefreshRequest) async -> RefreshOutcome {
        var kept = previous
        if let rotated = response.refreshToken { kept.refreshToken = rotated }
        let checked: StoredTokens
        do {
            checked = try await makeTokens(from: response, nonce: nil, previous: previous)
        } catch {
            return RefreshOutcome(tokens: kept, problem: error)
        }
        guard !request.isDefault else {
            var renewed = checked
            renewed.resourceTokens = previous.resourceTokens
            return RefreshOutcome(tokens: renewed, problem: nil)
        }
        // A token for one resource (or a narrowed scope) is cached beside the main one, which stays.
        kept.refreshToken = checked.refreshToken
        kept.idToken = checked.idToken
        kept.claims = checked.claims
        kept.resourceTokens[request.cacheKey] = ResourceAccessToken(
            accessToken: checked.accessToken, expiresAt: checked.accessTokenExpiresAt, requestedScope: request.scope,
            scope: response.scope)
        return RefreshOutcome(tokens: kept, problem: nil)
    }
}
