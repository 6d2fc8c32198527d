import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetStore

/// The operations of the admin API on clients, users, keys and the audit log, written once for
/// the admin listener (`/admin/v1`) and `signet clients|users|keys` on the local data folder.
/// Every refusal is an `AdminError` naming the field; every resource is a JSON object whose
/// strong ETag is a digest of that object (and, for a client, of its secret's hash), so any
/// change, including a rotated secret, changes the ETag.
public struct AdminService: Sendable {
    let environment: ServerEnvironment
    let registration: ClientRegistration
    let users: UserService
    /// The configured connections of the running server; nil on the CLI, which makes them from
    /// the configuration when an operation needs them (`configuredFederation()`).
    let federation: Federation?
    /// Who makes the changes: the admin client's id (API), or nil (the CLI on the data folder).
    var actor: String?
    /// The admin scopes the caller holds, the most it may hand out (`requireHolds`); nil for the
    /// operator on the data folder (the CLI without `--admin-url`), who holds them all.
    var heldScopes: Set<String>?

    /// The service over an environment's store, keys and clock, and the server's connections.
    public init(environment: ServerEnvironment, federation: Federation? = nil) {
        self.environment = environment
        self.federation = federation
        let registry = ClientRegistry(store: environment.storage.clients, secretKey: environment.masterKey.tokenHashKey)
        registration = ClientRegistration(policy: environment.policy, registry: registry, random: environment.random, clock: environment.clock)
        users = environment.makeUserService()
    }

    /// The most items one page holds, and the default.
    static let maximumPageSize = 200
    static let defaultPageSize = 50

    // MARK: clients

    /// A page of clients ordered by id, after `cursor` (an id), whose id or name contains `filter`.
    func clients(limit: Int, cursor: String?, filter: String?) throws -> (items: [JSONValue], next: String?) {
        let matching = try environment.storage.clients.allClients().filter { record in
            guard let filter, !filter.isEmpty else { return true }
            return record.id.localizedCaseInsensitiveContains(filter) || record.name.localizedCaseInsensitiveContains(filter)
        }
        return Self.page(matching, id: \.id, limit: limit, cursor: cursor, json: Self.json)
    }

    /// The client, or 404.
    public func client(_ id: String) throws -> ClientRecord {
        guard let record = try environment.storage.clients.client(id: id) else { throw AdminError.notFound("client") }
        return record
    }

    /// Registers a client; returns it and, for a confidential client, its secret (shown once).
    public func createClient(_ spec: ClientSpec) throws -> (record: ClientRecord, secret: String?) {
        try requireHolds(Self.scopeTokens(spec))
        do {
            let created = try registration.register(spec)
            audit("client_created", client: created.record.id, detail: ["after": AuditSnapshot.client(created.record)])
            return created
        } catch let error as ClientRegistrationError {
            throw Self.adminError(error)
        }
    }

    /// Replaces the client's settings with `spec` (same id and type); its secret and creation time stay.
    func updateClient(_ spec: ClientSpec, existing: ClientRecord) throws -> ClientRecord {
        try requireHolds(existing.allowedScopes + Self.scopeTokens(spec))
        do {
            var record = try registration.record(spec, secretHash: existing.secretHash)
            record.createdAt = existing.createdAt
            try environment.storage.clients.upsertClient(record)
            let updated = try client(record.id)
            audit("client_updated", client: record.id,
                  detail: ["before": AuditSnapshot.client(existing), "after": AuditSnapshot.client(updated)])
            return updated
        } catch let error as ClientRegistrationError {
            throw Self.adminError(error)
        }
    }

    /// Deletes the client.
    public func deleteClient(_ id: String) throws {
        let before = try environment.storage.clients.client(id: id)
        try requireHolds(before?.allowedScopes ?? [])
        guard try environment.storage.clients.deleteClient(id: id) else { throw AdminError.notFound("client") }
        audit("client_deleted", client: id, detail: ["before": before.map(AuditSnapshot.client) ?? .null])
    }

    /// A new secret for a confidential client (the old one stops working); shown once.
    public func rotateSecret(_ id: String) throws -> String {
        // The new secret is the client's power: only a caller holding its admin scopes gets it.
        try requireHolds(try environment.storage.clients.client(id: id)?.allowedScopes ?? [])
        do {
            let secret = try registration.rotateSecret(clientID: id)
            audit("client_secret_rotated", client: id,
                  detail: ["before": .object(["secret": AuditSnapshot.redacted]), "after": .object(["secret": AuditSnapshot.redacted])])
            return secret
        } catch let error as ClientRegistrationError {
            throw Self.adminError(error)
        }
    }

    /// The spec a stored client was made from, to apply an update to: the settings of its
    /// `extra` (application type, `mfa_required`, `email_sign_in`) included, so an update keeps them.
    static func spec(of record: ClientRecord) -> ClientSpec {
        var spec = ClientSpec(id: record.id, name: record.name, isPublic: record.isPublic, redirectURIs: record.redirectURIs,
                              postLogoutRedirectURIs: record.postLogoutRedirectURIs, scope: record.allowedScopes.joined(separator: " "),
                              grantTypes: record.grantTypes, firstParty: record.firstParty, authenticationMethod: record.tokenEndpointAuthMethod,
                              idTokenAlgorithm: record.idTokenAlgorithm, lifetimes: record.lifetimes,
                              allowHeadless: record.allowHeadless, allowedResources: record.allowedResources)
        let extra = Client.ExtraSettings(record)
        spec.applicationType = extra.applicationType
        spec.mfaRequired = extra.mfaRequired
        spec.emailSignIn = extra.emailSignIn
        return spec
    }

    /// A client as the API shows it: never the secret or its hash, only whether there is one.
    static func json(_ record: ClientRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(record.id), "name": .string(record.name),
            "type": .string(record.isPublic ? "public" : "confidential"), "has_secret": .bool(record.secretHash != nil),
            "application_type": .string(Client.ExtraSettings(record).applicationType.rawValue),
            "token_endpoint_auth_method": .string(record.tokenEndpointAuthMethod),
            "grant_types": .array(record.grantTypes.map(JSONValue.string)),
            "scope": .string(record.allowedScopes.joined(separator: " ")),
            "redirect_uris": .array(record.redirectURIs.map(JSONValue.string)),
            "post_logout_redirect_uris": .array(record.postLogoutRedirectURIs.map(JSONValue.string)),
            "resources": .array(record.allowedResources.map(JSONValue.string)),
            "first_party": .bool(record.firstParty), "allow_headless": .bool(record.allowHeadless),
            "id_token_algorithm": .string(record.idTokenAlgorithm),
            "created_at": .string(stamp(record.createdAt)), "updated_at": .string(stamp(record.updatedAt)),
        ]
        if let seconds = record.lifetimes.accessToken { object["access_token_lifetime"] = .int(Int64(seconds)) }
        if let seconds = record.lifetimes.refreshToken { object["refresh_token_lifetime"] = .int(Int64(seconds)) }
        if let seconds = record.lifetimes.idToken { object["id_token_lifetime"] = .int(Int64(seconds)) }
        return .object(object)
    }

    /// The client's strong ETag: its representation and its secret's hash (a rotation changes it).
    static func etag(_ record: ClientRecord) -> String {
        etag(json(record).serialized() + (record.secretHash ?? []))
    }

    // MARK: users

    /// A page of users ordered by id, after `cursor`, whose email or name contains `filter`: one
    /// page read from the store (`LIMIT limit + 1`), however many users there are.
    func users(limit: Int, cursor: String?, filter: String?) throws -> (items: [JSONValue], next: String?) {
        let window = try environment.storage.users.users(after: cursor, matching: filter.flatMap { $0.isEmpty ? nil : $0 }, limit: limit + 1)
        let items = Array(window.prefix(limit))
        let next = window.count > limit ? items.last?.id : nil
        return (items.map(Self.json), next)
    }

    /// The user, or 404.
    public func user(_ id: String) throws -> UserRecord {
        guard let user = try environment.storage.users.user(id: id) else { throw AdminError.notFound("user") }
        return user
    }

    /// Creates a local account (a password is optional: without one, the user signs in otherwise).
    func createUser(email: String, name: String?, password: String?) throws -> UserRecord {
        let normalized: String
        do { normalized = try UserService.normalizeEmail(email) } catch { throw AdminError.invalid("email", error.message) }
        if let password {
            do { try UserService.checkNewPassword(password) } catch { throw AdminError.invalid("password", error.message) }
        }
        if try users.find(normalized) != nil { throw AdminError.conflict("email", "A user with this email already exists.") }
        do {
            let user = try users.create(email: normalized, name: name, password: password)
            audit("user_created", subject: user.id, detail: ["after": AuditSnapshot.user(user)])
            return user
        } catch let error as UserServiceError {
            throw AdminError.invalid(nil, error.message)
        }
    }

    /// Replaces the user's profile claims and email-verified flag.
    func updateUser(_ user: UserRecord, name: String?, givenName: String?, familyName: String?, emailVerified: Bool) throws -> UserRecord {
        try environment.storage.users.updateProfile(userID: user.id, name: name, givenName: givenName, familyName: familyName,
                                                    emailVerified: emailVerified, now: environment.clock.now)
        let updated = try self.user(user.id)
        audit("user_updated", subject: user.id, detail: ["before": AuditSnapshot.user(user), "after": AuditSnapshot.user(updated)])
        return updated
    }

    /// Disables or enables the user; disabling ends its sessions and tokens (the counts).
    public func setDisabled(_ user: UserRecord, _ disabled: Bool) throws -> (user: UserRecord, sessions: Int, grants: Int) {
        var ended = (sessions: 0, grants: 0)
        // UserService records user_disabled / user_enabled.
        if disabled { ended = try users.disable(userID: user.id) } else { try users.enable(userID: user.id) }
        return (try self.user(user.id), ended.sessions, ended.grants)
    }

    /// Unlocks the user's TOTP factor (`SecondFactorService.unlock`, audited `totp_unlocked` via
    /// `admin`, or `cli` from `signet users unlock-totp`); false when it was not locked.
    public func unlockTOTP(_ user: UserRecord) throws -> Bool {
        let auditor = Auditor(log: environment.storage.audit, clock: environment.clock, context: AuditContext.ofRequest)
        let service = SecondFactorService(storage: environment.storage, policy: environment.policy, auditor: auditor, clock: environment.clock,
                                          random: environment.random, key: environment.masterKey.secondFactorKey)
        return try service.unlock(userID: user.id, via: actor == nil ? "cli" : "admin", actor: actor ?? "cli")
    }

    /// Ends the user's sessions and revokes its tokens; returns the counts.
    public func revokeSessionsAndTokens(_ user: UserRecord) throws -> (sessions: Int, grants: Int) {
        let result = try users.revokeSessionsAndTokens(userID: user.id)
        audit("user_sessions_revoked", subject: user.id)
        return result
    }

    /// Deletes the account through the one `AccountDeletion` the account page, `DELETE /account`
    /// and `signet users delete` use: everything that names the user in one transaction, then the
    /// revocation of a linked Apple identity's token at Apple. Audited `account_deleted` (via
    /// `admin`, with the acting client as actor).
    @discardableResult
    public func deleteUser(_ user: UserRecord) async throws -> AccountDeletion.Outcome {
        let deletion = AccountDeletion(environment: environment, federation: try configuredFederation())
        do { return try await deletion.delete(userID: user.id, via: "admin", actor: actor ?? "cli") } catch is UserServiceError {
            throw AdminError.notFound("user")
        }
    }

    /// A user as the API shows it: never the password hash, only whether one is set.
    static func json(_ user: UserRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(user.id), "email": .string(user.email), "email_verified": .bool(user.emailVerified),
            "has_password": .bool(user.passwordHash != nil), "disabled": .bool(user.disabledAt != nil),
            "created_at": .string(stamp(user.createdAt)), "updated_at": .string(stamp(user.updatedAt)),
        ]
        object["name"] = user.name.map(JSONValue.string) ?? .null
        object["given_name"] = user.givenName.map(JSONValue.string) ?? .null
        object["family_name"] = user.familyName.map(JSONValue.string) ?? .null
        object["disabled_at"] = user.disabledAt.map { .string(stamp($0)) } ?? .null
        return .object(object)
    }

    /// The user's strong ETag: its representation and its password hash (a new password changes it).
    static func etag(_ user: UserRecord) -> String {
        etag(json(user).serialized() + Array((user.passwordHash ?? "").utf8))
    }

    // MARK: keys

    /// Every signing key, oldest first, with its status.
    /// One key's public facts, or `not_found` naming `key`.
    func key(_ id: String) throws -> JSONValue {
        guard let record = try environment.keyRing.records().first(where: { $0.id == id }) else { throw AdminError.notFound("key") }
        return Self.json(record, now: environment.clock.now)
    }

    func keys() throws -> [JSONValue] {
        let ring = environment.keyRing
        try ring.ensureSigningKeys(environment.requiredAlgorithms)
        let now = environment.clock.now
        return try ring.records().sorted { $0.createdAt < $1.createdAt }.map { Self.json($0, now: now) }
    }

    /// Publishes a new key per algorithm (all required ones when nil) that signs after `prepublish` seconds.
    func rotateKeys(algorithm: String?, prepublishSeconds: Int?) throws -> [JSONValue] {
        let algorithms: [SignatureAlgorithm]
        if let algorithm {
            guard let parsed = SignatureAlgorithm(rawValue: algorithm) else {
                throw AdminError.invalid("algorithm", "must be one of \(SignatureAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            algorithms = [parsed]
        } else {
            algorithms = environment.requiredAlgorithms
        }
        let prepublish = prepublishSeconds ?? environment.configuration.keys.prepublishSeconds
        guard (0...31_536_000).contains(prepublish) else { throw AdminError.invalid("prepublish_seconds", "must be between 0 and 31536000") }
        let ring = environment.keyRing
        try ring.ensureSigningKeys(environment.requiredAlgorithms)
        let now = environment.clock.now
        let rotated = try algorithms.map { try ring.rotate($0, prepublishSeconds: prepublish) }
        audit("signing_keys_rotated")
        return rotated.map { Self.json($0, now: now) }
    }

    /// Retires a key: it stops signing at once and stays published while its tokens may live.
    /// Returns the replacement when the retired key was the only signer of its algorithm.
    func retireKey(_ id: String) throws -> JSONValue? {
        do {
            let replacement = try environment.keyRing.retire(keyID: id)
            audit("signing_key_retired")
            return replacement.map { Self.json($0, now: environment.clock.now) }
        } catch StoreError.notFound {
            throw AdminError.notFound("key")
        }
    }

    /// A key's public facts: never its private half.
    static func json(_ record: SigningKeyRecord, now: Date) -> JSONValue {
        .object([
            "id": .string(record.id), "algorithm": .string(record.algorithm), "status": .string(record.status(at: now).rawValue),
            "created_at": .string(stamp(record.createdAt)), "activates_at": .string(stamp(record.activatesAt)),
            "retired_at": record.retiredAt.map { .string(stamp($0)) } ?? .null,
            "remove_after": record.removeAfter.map { .string(stamp($0)) } ?? .null,
        ])
    }

    // MARK: audit

    /// A page of audit events, newest first, older than `cursor` (a sequence number), matching
    /// every filter given. The store reads one page (`LIMIT limit + 1`, by sequence), never more.
    func auditEvents(limit: Int, cursor: String?, filter: AuditQuery = AuditQuery()) throws -> (items: [JSONValue], next: String?) {
        var query = filter
        if let cursor {
            guard let value = Int64(cursor), value > 0 else { throw AdminError.invalid("cursor", "is not a cursor this API returned") }
            query.beforeSequence = value
        }
        query.limit = limit + 1
        let window = try environment.storage.audit.listAudit(query)
        let items = Array(window.prefix(limit))
        let next = window.count > limit ? items.last.map { String($0.sequence) } : nil
        return (items.map(Self.json), next)
    }

    static func json(_ event: AuditEvent) -> JSONValue {
        let detail = (try? JSONValue.parse(event.detail)) ?? .object([:])
        return .object([
            "sequence": .int(event.sequence), "event": .string(event.event), "at": .string(stamp(event.at)),
            "actor": event.actor.map(JSONValue.string) ?? .null,
            "subject": event.subjectID.map(JSONValue.string) ?? .null, "client": event.clientID.map(JSONValue.string) ?? .null,
            "address": event.address.map(JSONValue.string) ?? .null, "user_agent": event.userAgent.map(JSONValue.string) ?? .null,
            "method": event.method.map(JSONValue.string) ?? .null, "reason": event.reason.map(JSONValue.string) ?? .null,
            "detail": detail,
        ])
    }

    // MARK: shared

    /// Records an admin change through the one `Auditor`: the actor is the acting admin client
    /// (`cli` on the data folder), the client is the one changed, the detail holds `before` and
    /// `after` snapshots with every secret redacted (`AuditSnapshot`).
    func audit(_ event: String, subject: String? = nil, client: String? = nil, detail: [String: JSONValue] = [:]) {
        Auditor(log: environment.storage.audit, clock: environment.clock, context: AuditContext.ofRequest)
            .record(event, actor: actor ?? "cli", subject: subject, client: client, detail: detail)
    }

    /// One page of `all` (sorted by `id`) after `cursor`, and the cursor of the next page.
    static func page<T>(_ all: [T], id: KeyPath<T, String>, limit: Int, cursor: String?, json: (T) -> JSONValue)
        -> (items: [JSONValue], next: String?) {
        let rest = cursor.map { cursor in all.filter { $0[keyPath: id] > cursor } } ?? all
        let items = Array(rest.prefix(limit))
        let next = rest.count > limit ? items.last.map { $0[keyPath: id] } : nil
        return (items.map(json), next)
    }

    /// `"` + the first 128 bits of SHA-256 of `bytes`, base64url + `"`: a strong validator (RFC 9110 §8.8.3).
    static func etag(_ bytes: [UInt8]) -> String {
        "\"" + Base64URL.encode(Array(Digest.sha256(bytes).prefix(16))) + "\""
    }

    /// RFC 3339 in UTC, whole seconds.
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// A registration refusal as an admin error naming its first field.
    static func adminError(_ error: ClientRegistrationError) -> AdminError {
        guard let first = error.issues.first else { return AdminError.invalid(nil, "The client is invalid.") }
        if first.message.contains("already exists") { return AdminError.conflict(first.field, first.message) }
        if first.message.hasPrefix("no client has id") { return AdminError.notFound("client") }
        return AdminError.invalid(first.field, first.message)
    }
}
