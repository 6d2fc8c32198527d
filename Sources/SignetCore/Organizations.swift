import Foundation
import SignetCrypto
import SignetJOSE
import SignetStore

/// The rules of organizations, written once for the CLI, the admin API and an organization's own
/// admins: slugs, names, logos and role names are checked here, every change is audited, and an
/// invitation's token is made here and stored only as its keyed hash.
///
/// Roles: `owner`, `admin` and `member` are built in; an organization adds its own names.
/// Who may do what is the caller's to decide (`OrganizationAdminPolicy` for an org admin).
public struct Organizations: Sendable {
    let store: any OrganizationStore
    let users: any UserStore
    /// Grant families, ended with a membership.
    let grants: any RefreshTokenStore
    let clock: any Clock
    let random: any RandomSource
    let auditor: Auditor
    let invitationLifetime: TimeInterval
    let hashKey: [UInt8]

    /// The built-in roles, present in every organization.
    public static let builtInRoles = ["owner", "admin", "member"]
    /// The role a member gets when none is given.
    public static let defaultRole = "member"
    /// The most custom roles an organization can define.
    public static let maximumCustomRoles = 50

    /// The service; the invitation-token hash key comes from `tokenHashKey` (the master key's).
    public init(storage: any SignetStorage, clock: any Clock, random: any RandomSource, auditor: Auditor,
                invitationLifetime: TimeInterval, tokenHashKey: [UInt8]) {
        store = storage.organizations
        users = storage.users
        grants = storage.refreshTokens
        self.clock = clock
        self.random = random
        self.auditor = auditor
        self.invitationLifetime = invitationLifetime
        hashKey = HMAC.sha256(key: tokenHashKey, message: Array("signet/v1/organization-invitation".utf8))
    }

    // MARK: checks

    private static let slugBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789-".utf8)
    private static let roleBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789-_:.".utf8)

    /// A slug: lowercase letters, digits and `-`, 2 to 63 bytes, not starting or ending with `-`,
    /// and not of the shape of an id (`org_…` cannot occur: `_` is not allowed).
    public static func checkSlug(_ raw: String, field: String = "slug") throws(OrganizationError) -> String {
        guard (2...63).contains(raw.utf8.count), raw.utf8.allSatisfy({ slugBytes.contains($0) }),
              !raw.hasPrefix("-"), !raw.hasSuffix("-")
        else {
            throw OrganizationError(.invalid, field, "must be 2 to 63 lowercase letters, digits or hyphens, not starting or ending with a hyphen")
        }
        return raw
    }

    /// A display name: 1 to 200 characters after trimming, no control characters.
    public static func checkName(_ raw: String, field: String = "name") throws(OrganizationError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw OrganizationError(.invalid, field, "must be 1 to 200 characters without control characters")
        }
        return name
    }

    /// A logo: an absolute `https` URL of at most 2048 bytes, or nil.
    public static func checkLogo(_ raw: String?, field: String = "logo_url") throws(OrganizationError) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        guard raw.utf8.count <= 2048, let url = URL(string: raw), url.scheme == "https", let host = url.host, !host.isEmpty,
              !raw.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { throw OrganizationError(.invalid, field, "must be an https URL") }
        return raw
    }

    /// A role name: 1 to 64 of lowercase letters, digits, `-`, `_`, `:` and `.`.
    public static func checkRoleName(_ raw: String, field: String = "role") throws(OrganizationError) -> String {
        guard (1...64).contains(raw.utf8.count), raw.utf8.allSatisfy({ roleBytes.contains($0) }) else {
            throw OrganizationError(.invalid, field, "must be 1 to 64 lowercase letters, digits, -, _, : or .")
        }
        return raw
    }

    // MARK: organizations

    /// The organization with this id (`org_…`) or slug, or nil.
    public func find(_ idOrSlug: String) throws -> OrganizationRecord? {
        if idOrSlug.hasPrefix("org_") { return try store.organization(id: idOrSlug) }
        return try store.organization(slug: idOrSlug)
    }

    /// The organization with this id or slug, or `.notFound`.
    public func require(_ idOrSlug: String) throws -> OrganizationRecord {
        guard let organization = try find(idOrSlug) else { throw OrganizationError(.notFound, nil, "No organization has this id or slug.") }
        return organization
    }

    /// Creates an organization; `owner` (a user id) becomes its first member with the role `owner`.
    public func create(slug rawSlug: String, name rawName: String, logoURL rawLogo: String? = nil, owner: String? = nil,
                       actor: String? = nil) throws -> OrganizationRecord {
        let slug = try Self.checkSlug(rawSlug), name = try Self.checkName(rawName), logo = try Self.checkLogo(rawLogo)
        if let owner, try users.user(id: owner) == nil { throw OrganizationError(.notFound, "owner", "No user has this id.") }
        let now = clock.now
        let record = OrganizationRecord(id: "org_" + Self.randomID(random), slug: slug, name: name, logoURL: logo,
                                        createdAt: now, updatedAt: now)
        do { try store.insertOrganization(record) } catch StoreError.duplicate {
            throw OrganizationError(.conflict, "slug", "Another organization has this slug.")
        }
        auditor.record("organization_created", actor: actor, detail: ["organization": .string(record.id), "slug": .string(slug)])
        if let owner { _ = try addMember(record, userID: owner, roles: ["owner"], actor: actor) }
        return record
    }

    /// Changes the slug, name or logo (nil: unchanged; an empty logo removes it).
    public func update(_ organization: OrganizationRecord, slug: String? = nil, name: String? = nil, logoURL: String? = nil,
                       actor: String? = nil) throws -> OrganizationRecord {
        var updated = organization
        if let slug { updated.slug = try Self.checkSlug(slug) }
        if let name { updated.name = try Self.checkName(name) }
        if let logoURL { updated.logoURL = try Self.checkLogo(logoURL) }
        updated.updatedAt = clock.now
        do { try store.updateOrganization(updated) } catch StoreError.duplicate {
            throw OrganizationError(.conflict, "slug", "Another organization has this slug.")
        } catch StoreError.notFound {
            throw OrganizationError(.notFound, nil, "No organization has this id or slug.")
        }
        auditor.record("organization_updated", actor: actor, detail: [
            "organization": .string(updated.id), "before": Self.snapshot(organization), "after": Self.snapshot(updated),
        ])
        return updated
    }

    /// Deletes the organization with its roles, members and invitations, and ends every grant
    /// family made for it (whoever the member: their access tokens fail userinfo and
    /// introspection at once, their refresh tokens are `invalid_grant`), as `removeMember` does
    /// for one member.
    public func delete(_ organization: OrganizationRecord, actor: String? = nil) throws {
        guard try store.deleteOrganization(id: organization.id) else {
            throw OrganizationError(.notFound, nil, "No organization has this id or slug.")
        }
        let revoked = try grants.revokeGrants(organizationID: organization.id, reason: "organization_deleted", now: clock.now)
        auditor.record("organization_deleted", actor: actor, detail: [
            "organization": .string(organization.id), "before": Self.snapshot(organization), "grants_revoked": .int(Int64(revoked)),
        ])
    }

    // MARK: roles

    /// Every role of the organization: the built-in ones, then its own, sorted.
    public func roles(_ organization: OrganizationRecord) throws -> [String] {
        Self.builtInRoles + (try store.roles(organizationID: organization.id))
    }

    /// Adds a custom role.
    public func addRole(_ organization: OrganizationRecord, _ raw: String, actor: String? = nil) throws -> String {
        let name = try Self.checkRoleName(raw, field: "name")
        guard !Self.builtInRoles.contains(name) else { throw OrganizationError(.conflict, "name", "\(name) is a built-in role.") }
        guard try store.roles(organizationID: organization.id).count < Self.maximumCustomRoles else {
            throw OrganizationError(.invalid, "name", "An organization has at most \(Self.maximumCustomRoles) custom roles.")
        }
        do { try store.insertRole(organizationID: organization.id, name: name, at: clock.now) } catch StoreError.duplicate {
            throw OrganizationError(.conflict, "name", "The organization already has this role.")
        }
        auditor.record("organization_role_added", actor: actor, detail: ["organization": .string(organization.id), "role": .string(name)])
        return name
    }

    /// Removes a custom role and takes it from the members holding it.
    public func removeRole(_ organization: OrganizationRecord, _ name: String, actor: String? = nil) throws {
        guard !Self.builtInRoles.contains(name) else { throw OrganizationError(.invalid, "name", "\(name) is a built-in role and cannot be removed.") }
        guard try store.deleteRole(organizationID: organization.id, name: name) else {
            throw OrganizationError(.notFound, "name", "The organization has no such role.")
        }
        auditor.record("organization_role_removed", actor: actor, detail: ["organization": .string(organization.id), "role": .string(name)])
    }

    /// `roles` checked against the organization's roles, sorted without repeats; empty means `member`.
    public func checkRoles(_ organization: OrganizationRecord, _ roles: [String], field: String = "roles") throws -> [String] {
        let known = Set(try self.roles(organization))
        for role in roles where !known.contains(role) {
            throw OrganizationError(.invalid, field, "The organization has no role \"\(String(role.prefix(64)))\".")
        }
        let set = Set(roles)
        return set.isEmpty ? [Self.defaultRole] : set.sorted()
    }

    // MARK: members

    /// Makes the user a member with `roles` (checked; empty: `member`). Idempotent: an existing
    /// member is left as it is and false is returned.
    @discardableResult
    public func addMember(_ organization: OrganizationRecord, userID: String, roles: [String], actor: String? = nil) throws -> Bool {
        let roles = try checkRoles(organization, roles)
        let added: Bool
        do { added = try store.addMember(organizationID: organization.id, userID: userID, roles: roles, at: clock.now) } catch StoreError.notFound {
            throw OrganizationError(.notFound, "user", "No user has this id.")
        }
        if added {
            auditor.record("organization_member_added", actor: actor, subject: userID,
                           detail: ["organization": .string(organization.id), "roles": .array(roles.map(JSONValue.string))])
        }
        return added
    }

    /// The membership, or `.notFound`.
    public func member(_ organization: OrganizationRecord, userID: String) throws -> OrganizationMemberRecord {
        guard let member = try store.membership(organizationID: organization.id, userID: userID) else {
            throw OrganizationError(.notFound, "user", "The user is not a member of this organization.")
        }
        return member
    }

    /// Ends a membership, and with it the user's grant families for the organization (their
    /// access tokens fail userinfo and introspection at once; a refresh would be refused anyway).
    public func removeMember(_ organization: OrganizationRecord, userID: String, actor: String? = nil) throws {
        guard try store.removeMember(organizationID: organization.id, userID: userID) else {
            throw OrganizationError(.notFound, "user", "The user is not a member of this organization.")
        }
        let revoked = try grants.revokeGrants(userID: userID, organizationID: organization.id,
                                              reason: "organization_membership_ended", now: clock.now)
        auditor.record("organization_member_removed", actor: actor, subject: userID,
                       detail: ["organization": .string(organization.id), "grants_revoked": .int(Int64(revoked))])
    }

    /// Replaces a member's roles (checked; empty: `member`).
    public func setRoles(_ organization: OrganizationRecord, userID: String, roles: [String], actor: String? = nil) throws -> OrganizationMemberRecord {
        let before = try member(organization, userID: userID)
        let roles = try checkRoles(organization, roles)
        guard try store.setRoles(organizationID: organization.id, userID: userID, roles: roles) else {
            throw OrganizationError(.notFound, "user", "The user is not a member of this organization.")
        }
        auditor.record("organization_roles_set", actor: actor, subject: userID, detail: [
            "organization": .string(organization.id), "before": .array(before.roles.map(JSONValue.string)),
            "after": .array(roles.map(JSONValue.string)),
        ])
        var after = before
        after.roles = roles
        return after
    }

    // MARK: invitations

    /// A new invitation and its link's token (shown only in the mail). `mail` makes the outbox
    /// message from the token and the record; it is stored with the invitation in one transaction.
    public func invite(_ organization: OrganizationRecord, email rawEmail: String, role rawRole: String?, actor: String?,
                       mail: (String, OrganizationInvitationRecord) throws -> OutboxMessageRecord?) throws -> OrganizationInvitationRecord {
        let email: String
        do { email = try EmailAddress.normalize(rawEmail) } catch { throw OrganizationError(.invalid, "email", error.message) }
        let role = try checkRoles(organization, [rawRole ?? Self.defaultRole], field: "role")[0]
        let now = clock.now
        let token = Self.newToken(random)
        let record = OrganizationInvitationRecord(
            id: "inv_" + Self.randomID(random), organizationID: organization.id, email: email, role: role,
            tokenHash: tokenHash(token), createdAt: now, expiresAt: now.addingTimeInterval(invitationLifetime), invitedBy: actor)
        let message = try mail(token, record)
        do { try store.insertInvitation(record, mail: message) } catch StoreError.notFound {
            throw OrganizationError(.notFound, nil, "No organization has this id or slug.")
        }
        auditor.record("organization_invitation_sent", actor: actor, detail: [
            "organization": .string(organization.id), "invitation": .string(record.id), "role": .string(role),
        ])
        return record
    }

    /// The organization's invitation with this id, or `.notFound`.
    public func invitation(_ organization: OrganizationRecord, id: String) throws -> OrganizationInvitationRecord {
        guard let invitation = try store.invitation(id: id), invitation.organizationID == organization.id else {
            throw OrganizationError(.notFound, "invitation", "The organization has no invitation with this id.")
        }
        return invitation
    }

    /// The organization's invitations, newest first.
    public func invitations(_ organization: OrganizationRecord) throws -> [OrganizationInvitationRecord] {
        try store.invitations(organizationID: organization.id)
    }

    /// Sends a pending invitation again with a new token and a new expiry; the old link stops working.
    public func resend(_ invitation: OrganizationInvitationRecord, actor: String?,
                       mail: (String, OrganizationInvitationRecord) throws -> OutboxMessageRecord?) throws -> OrganizationInvitationRecord {
        let now = clock.now
        let token = Self.newToken(random)
        var renewed = invitation
        renewed.tokenHash = tokenHash(token)
        renewed.createdAt = now
        renewed.expiresAt = now.addingTimeInterval(invitationLifetime)
        let message = try mail(token, renewed)
        guard try store.renewInvitation(id: invitation.id, tokenHash: renewed.tokenHash, expiresAt: renewed.expiresAt, now: now, mail: message) else {
            throw OrganizationError(.conflict, "invitation", "The invitation was accepted, revoked or has expired; send a new one.")
        }
        auditor.record("organization_invitation_resent", actor: actor, detail: [
            "organization": .string(invitation.organizationID), "invitation": .string(invitation.id),
        ])
        return renewed
    }

    /// Revokes a pending invitation.
    public func revoke(_ invitation: OrganizationInvitationRecord, actor: String?) throws {
        guard try store.revokeInvitation(id: invitation.id, now: clock.now) else {
            throw OrganizationError(.conflict, "invitation", "The invitation was already accepted, revoked or has expired.")
        }
        auditor.record("organization_invitation_revoked", actor: actor, detail: [
            "organization": .string(invitation.organizationID), "invitation": .string(invitation.id),
        ])
    }

    /// The invitation a link's token names, if the token has the right shape and is known.
    public func invitation(token: String) throws -> OrganizationInvitationRecord? {
        guard Self.isTokenShaped(token) else { return nil }
        return try store.invitation(tokenHash: tokenHash(token))
    }

    /// Accepts the invitation of `token` for `user` (whose email must be the invited one and
    /// verified, which the caller has checked or the link itself proves). Audited when accepted.
    public func accept(token: String, user: UserRecord) throws -> InvitationAcceptance {
        guard Self.isTokenShaped(token) else { return .unknown }
        let outcome = try store.acceptInvitation(tokenHash: tokenHash(token), userID: user.id, email: user.email, now: clock.now)
        if case .accepted(let invitation, let member) = outcome {
            auditor.record("organization_invitation_accepted", actor: user.id, subject: user.id, detail: [
                "organization": .string(invitation.organizationID), "invitation": .string(invitation.id),
                "roles": .array(member.roles.map(JSONValue.string)),
            ])
        }
        return outcome
    }

    /// Sign-up through the invitation of `token`: `newUser` (its email the invited one, marked
    /// verified, since the link proved the mailbox) is stored and made a member in the
    /// acceptance's own transaction, so a refusal creates nothing. Throws `.duplicate` from the
    /// store when the address already has an account. Audited when accepted.
    public func accept(token: String, creating newUser: UserRecord) throws -> InvitationAcceptance {
        guard Self.isTokenShaped(token) else { return .unknown }
        let outcome = try store.acceptInvitation(tokenHash: tokenHash(token), creating: newUser, now: clock.now)
        if case .accepted(let invitation, let member) = outcome {
            auditor.record("sign_up", actor: newUser.id, subject: newUser.id, method: "invitation",
                           detail: ["organization": .string(invitation.organizationID)])
            auditor.record("organization_invitation_accepted", actor: newUser.id, subject: newUser.id, detail: [
                "organization": .string(invitation.organizationID), "invitation": .string(invitation.id),
                "roles": .array(member.roles.map(JSONValue.string)),
            ])
        }
        return outcome
    }

    // MARK: shared

    /// The keyed hash of an invitation token.
    func tokenHash(_ token: String) -> [UInt8] { HMAC.sha256(key: hashKey, message: Array(token.utf8)) }

    static func newToken(_ random: any RandomSource) -> String { "sgi_" + Base64URL.encode(random.bytes(32)) }

    static func isTokenShaped(_ token: String) -> Bool { token.hasPrefix("sgi_") && token.utf8.count <= 64 }

    /// 20 random lowercase letters and digits (about 103 bits), drawn without bias: bytes of
    /// 252 and up (7 × 36) are skipped.
    static func randomID(_ random: any RandomSource) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var out = ""
        // Bounded: a source that keeps drawing 252…255 (only a broken test double) ends with bias, not a hang.
        for round in 0..<8 where out.count < 20 {
            for byte in random.bytes(24) where (byte < 252 || round == 7) && out.count < 20 { out.append(alphabet[Int(byte) % 36]) }
        }
        return out
    }

    /// An organization as the audit trail keeps it.
    static func snapshot(_ organization: OrganizationRecord) -> JSONValue {
        .object(["slug": .string(organization.slug), "name": .string(organization.name),
                 "logo_url": organization.logoURL.map(JSONValue.string) ?? .null])
    }
}
