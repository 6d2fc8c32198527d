import Foundation
import SignetCore
import SignetJOSE
import SignetStore

/// The admin API's organizations, members, roles and invitations: `Organizations` (SignetCore)
/// applies the rules and records the audit events, with the acting admin client as the actor;
/// this file shapes the JSON, the ETags and the refusals.
extension AdminService {
    var organizations: Organizations { environment.makeOrganizations() }

    /// `OrganizationError` as the admin API's refusal.
    static func adminError(_ error: OrganizationError) -> AdminError {
        switch error.kind {
        case .invalid: AdminError.invalid(error.field, error.message)
        case .notFound: AdminError(status: 404, error: "not_found", field: error.field, message: error.message)
        case .conflict: AdminError.conflict(error.field, error.message)
        case .forbidden: AdminError(status: 403, error: "forbidden", field: error.field, message: error.message)
        }
    }

    /// Runs `body`, turning an `OrganizationError` into an `AdminError`.
    func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as OrganizationError { throw Self.adminError(error) }
    }

    /// A page of organizations ordered by id after `cursor`, whose slug or name contains `filter`.
    func organizations(limit: Int, cursor: String?, filter: String?) throws -> (items: [JSONValue], next: String?) {
        let store = environment.storage.organizations
        guard let filter, !filter.isEmpty else {
            let page = try store.organizations(limit: limit + 1, after: cursor)
            let items = Array(page.prefix(limit))
            return (items.map(Self.json), page.count > limit ? items.last?.id : nil)
        }
        var matching: [OrganizationRecord] = []
        var after = cursor
        // A filtered page reads on until it is full, 200 rows at a time.
        while matching.count <= limit {
            let batch = try store.organizations(limit: 200, after: after)
            matching += batch.filter { $0.slug.localizedCaseInsensitiveContains(filter) || $0.name.localizedCaseInsensitiveContains(filter) }
            guard batch.count == 200, let last = batch.last else { break }
            after = last.id
        }
        let items = Array(matching.prefix(limit))
        return (items.map(Self.json), matching.count > limit ? items.last?.id : nil)
    }

    /// The organization with this id or slug, or 404.
    func organization(_ idOrSlug: String) throws -> OrganizationRecord {
        guard let found = try organizations.find(idOrSlug) else { throw AdminError.notFound("organization") }
        return found
    }

    /// An organization as the API shows it.
    static func json(_ organization: OrganizationRecord) -> JSONValue {
        .object([
            "id": .string(organization.id), "slug": .string(organization.slug), "name": .string(organization.name),
            "logo_url": organization.logoURL.map(JSONValue.string) ?? .null,
            "created_at": .string(stamp(organization.createdAt)), "updated_at": .string(stamp(organization.updatedAt)),
        ])
    }

    /// The organization's strong ETag.
    static func etag(_ organization: OrganizationRecord) -> String { etag(json(organization).serialized()) }

    /// A membership as the API shows it.
    static func json(_ member: OrganizationMemberRecord) -> JSONValue {
        .object([
            "user_id": .string(member.userID), "roles": .array(member.roles.map(JSONValue.string)),
            "created_at": .string(stamp(member.createdAt)),
        ])
    }

    /// A page of the organization's members ordered by user id.
    func members(_ organization: OrganizationRecord, limit: Int, cursor: String?) throws -> (items: [JSONValue], next: String?) {
        let page = try environment.storage.organizations.members(organizationID: organization.id, limit: limit + 1, after: cursor)
        let items = Array(page.prefix(limit))
        return (items.map(Self.json), page.count > limit ? items.last?.userID : nil)
    }

    /// An invitation as the API shows it: never its token or hash.
    static func json(_ invitation: OrganizationInvitationRecord, now: Date) -> JSONValue {
        let status = invitation.acceptedAt != nil ? "accepted" : invitation.revokedAt != nil ? "revoked"
            : invitation.expiresAt <= now ? "expired" : "pending"
        return .object([
            "id": .string(invitation.id), "organization_id": .string(invitation.organizationID),
            "email": .string(invitation.email), "role": .string(invitation.role), "status": .string(status),
            "created_at": .string(stamp(invitation.createdAt)), "expires_at": .string(stamp(invitation.expiresAt)),
            "accepted_at": invitation.acceptedAt.map { .string(stamp($0)) } ?? .null,
            "revoked_at": invitation.revokedAt.map { .string(stamp($0)) } ?? .null,
            "invited_by": invitation.invitedBy.map(JSONValue.string) ?? .null,
        ])
    }

    /// Invites `email` with `role` (nil: member): the mail goes through the outbox, and the
    /// sender thread is told (the admin API's and the console's one way to invite).
    func invite(_ organization: OrganizationRecord, email: String, role: String?) throws -> OrganizationInvitationRecord {
        let mailer = InvitationMailer(environment: environment)
        let invitation = try mapped { try organizations.invite(organization, email: email, role: role, actor: actor, mail: mailer.mail(for: organization)) }
        mailer.notify()
        return invitation
    }

    /// Sends the pending invitation `id` again with a new link and expiry.
    func resendInvitation(_ organization: OrganizationRecord, id: String) throws -> OrganizationInvitationRecord {
        let orgs = organizations
        let mailer = InvitationMailer(environment: environment)
        let renewed = try mapped { try orgs.resend(try orgs.invitation(organization, id: id), actor: actor, mail: mailer.mail(for: organization)) }
        mailer.notify()
        return renewed
    }

    /// The user by id or email, or 404 naming `field`.
    func userForMembership(_ idOrEmail: String, field: String = "user_id") throws -> UserRecord {
        guard let user = try users.find(idOrEmail) else {
            throw AdminError(status: 404, error: "not_found", field: field, message: "No user has this id or email.")
        }
        return user
    }
}
