import Foundation
import SignetStore

/// Organizations, roles, members and invitations over a SQL database (`organizations`,
/// `organization_roles`, `organization_members`, `organization_invitations`).
///
/// Adding a member is one `INSERT … ON CONFLICT DO NOTHING`, so racing additions leave one row
/// and neither fails. Accepting an invitation reads its row `{for_update}` in one transaction
/// (SQLite: `BEGIN IMMEDIATE`), decides with `InvitationAcceptance.decide` and writes the use and
/// the membership there, so of racing acceptances one wins.
public struct SQLOrganizationStore: OrganizationStore {
    let database: any SQLDatabase

    static let orgColumns = "id, slug, name, logo_url, created_at, updated_at"
    static let insertOrg = SQLTemplate.insert(into: "organizations", orgColumns)
    static let orgByID = "SELECT \(orgColumns) FROM organizations WHERE id = $1"
    static let orgBySlug = "SELECT \(orgColumns) FROM organizations WHERE slug = $1"
    static let orgPage = "SELECT \(orgColumns) FROM organizations WHERE id > $1 ORDER BY id LIMIT $2"
    static let updateOrg = "UPDATE organizations SET slug = $2, name = $3, logo_url = $4, updated_at = $5 WHERE id = $1"
    static let deleteOrg = "DELETE FROM organizations WHERE id = $1"

    static let rolesOf = "SELECT name FROM organization_roles WHERE organization_id = $1 ORDER BY name"
    static let insertRoleSQL = SQLTemplate.insert(into: "organization_roles", "organization_id, name, created_at")
    static let deleteRoleSQL = "DELETE FROM organization_roles WHERE organization_id = $1 AND name = $2"

    static let memberColumns = "organization_id, user_id, roles, created_at"
    static let insertMember = """
        INSERT INTO organization_members (\(memberColumns)) VALUES ($1, $2, $3, $4)
        ON CONFLICT (organization_id, user_id) DO NOTHING
        """
    static let deleteMember = "DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2"
    static let updateRoles = "UPDATE organization_members SET roles = $3 WHERE organization_id = $1 AND user_id = $2"
    static let memberByKey = "SELECT \(memberColumns) FROM organization_members WHERE organization_id = $1 AND user_id = $2"
    static let memberByKeyLocked = "\(memberByKey) {for_update}"
    static let membersOfOrg = "SELECT \(memberColumns) FROM organization_members WHERE organization_id = $1 {for_update}"
    static let memberPage = """
        SELECT \(memberColumns) FROM organization_members WHERE organization_id = $1 AND user_id > $2
        ORDER BY user_id LIMIT $3
        """
    static let membershipsOfUser = """
        SELECT o.id, o.slug, o.name, o.logo_url, o.created_at, o.updated_at, m.organization_id, m.user_id, m.roles, m.created_at
        FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = $1 ORDER BY o.slug
        """

    static let invitationColumns = """
        id, organization_id, email, role, token_hash, created_at, expires_at, accepted_at, revoked_at, invited_by, accepted_by
        """
    static let insertInvitationSQL = SQLTemplate.insert(into: "organization_invitations", invitationColumns)
    static let invitationByID = "SELECT \(invitationColumns) FROM organization_invitations WHERE id = $1"
    static let invitationByToken = "SELECT \(invitationColumns) FROM organization_invitations WHERE token_hash = $1"
    static let invitationByTokenLocked = "\(invitationByToken) {for_update}"
    static let invitationsOfOrg = """
        SELECT \(invitationColumns) FROM organization_invitations WHERE organization_id = $1 ORDER BY created_at DESC, id
        """
    static let renew = """
        UPDATE organization_invitations SET token_hash = $2, expires_at = $3, created_at = $4
        WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $4
        """
    static let revoke = """
        UPDATE organization_invitations SET revoked_at = $2
        WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        """
    static let markAccepted = "UPDATE organization_invitations SET accepted_at = $2, accepted_by = $3 WHERE id = $1"

    static func decodeOrganization(_ row: any SQLRow, from c: Int32 = 0) throws -> OrganizationRecord {
        OrganizationRecord(id: try row.text(c), slug: try row.text(c + 1), name: try row.text(c + 2),
                           logoURL: row.optionalText(c + 3), createdAt: try row.date(c + 4), updatedAt: try row.date(c + 5))
    }

    static func decodeMember(_ row: any SQLRow, from c: Int32 = 0) throws -> OrganizationMemberRecord {
        OrganizationMemberRecord(organizationID: try row.text(c), userID: try row.text(c + 1),
                                 roles: try row.stringArray(c + 2), createdAt: try row.date(c + 3))
    }

    static func decodeInvitation(_ row: any SQLRow) throws -> OrganizationInvitationRecord {
        OrganizationInvitationRecord(
            id: try row.text(0), organizationID: try row.text(1), email: try row.text(2), role: try row.text(3),
            tokenHash: try row.blob(4), createdAt: try row.date(5), expiresAt: try row.date(6),
            acceptedAt: try row.optionalDate(7), revokedAt: try row.optionalDate(8), invitedBy: row.optionalText(9),
            acceptedBy: row.optionalText(10))
    }

    /// Roles as stored: sorted, without repeats.
    static func rolesText(_ roles: [String]) throws -> String {
        try StringList.json(Array(Set(roles)).sorted())
    }

    /// See `OrganizationStore.insertOrganization(_:)`.
    public func insertOrganization(_ o: OrganizationRecord) throws {
        try database.write { db in
            try db.run(Self.insertOrg, [o.id, o.slug, o.name, o.logoURL, o.createdAt, o.updatedAt])
        }
    }

    /// See `OrganizationStore.organization(id:)`.
    public func organization(id: String) throws -> OrganizationRecord? {
        try database.read { db in try db.one(Self.orgByID, [id]) { try Self.decodeOrganization($0) } }
    }

    /// See `OrganizationStore.organization(slug:)`.
    public func organization(slug: String) throws -> OrganizationRecord? {
        try database.read { db in try db.one(Self.orgBySlug, [slug]) { try Self.decodeOrganization($0) } }
    }

    /// See `OrganizationStore.organizations(limit:after:)`.
    public func organizations(limit: Int, after: String?) throws -> [OrganizationRecord] {
        try database.read { db in try db.query(Self.orgPage, [after ?? "", limit]) { try Self.decodeOrganization($0) } }
    }

    /// See `OrganizationStore.updateOrganization(_:)`.
    public func updateOrganization(_ o: OrganizationRecord) throws {
        let changed = try database.write { db in try db.run(Self.updateOrg, [o.id, o.slug, o.name, o.logoURL, o.updatedAt]) }
        if changed == 0 { throw StoreError.notFound }
    }

    /// See `OrganizationStore.deleteOrganization(id:)`.
    public func deleteOrganization(id: String) throws -> Bool {
        try database.write { db in try db.run(Self.deleteOrg, [id]) > 0 }
    }

    /// See `OrganizationStore.roles(organizationID:)`.
    public func roles(organizationID: String) throws -> [String] {
        try database.read { db in try db.query(Self.rolesOf, [organizationID]) { try $0.text(0) } }
    }

    /// See `OrganizationStore.insertRole(organizationID:name:at:)`.
    public func insertRole(organizationID: String, name: String, at: Date) throws {
        try database.write { db in try db.run(Self.insertRoleSQL, [organizationID, name, at]) }
    }

    /// See `OrganizationStore.deleteRole(organizationID:name:)`.
    public func deleteRole(organizationID: String, name: String) throws -> Bool {
        try database.transaction { db in
            guard try db.run(Self.deleteRoleSQL, [organizationID, name]) > 0 else { return false }
            let holders = try db.query(Self.membersOfOrg, [organizationID]) { try Self.decodeMember($0) }
            for member in holders where member.roles.contains(name) {
                try db.run(Self.updateRoles, [organizationID, member.userID, try Self.rolesText(member.roles.filter { $0 != name })])
            }
            return true
        }
    }

    /// See `OrganizationStore.addMember(organizationID:userID:roles:at:)`.
    public func addMember(organizationID: String, userID: String, roles: [String], at: Date) throws -> Bool {
        let text = try Self.rolesText(roles)
        return try database.write { db in try db.run(Self.insertMember, [organizationID, userID, text, at]) == 1 }
    }

    /// See `OrganizationStore.removeMember(organizationID:userID:)`.
    public func removeMember(organizationID: String, userID: String) throws -> Bool {
        try database.write { db in try db.run(Self.deleteMember, [organizationID, userID]) > 0 }
    }

    /// See `OrganizationStore.setRoles(organizationID:userID:roles:)`.
    public func setRoles(organizationID: String, userID: String, roles: [String]) throws -> Bool {
        let text = try Self.rolesText(roles)
        return try database.write { db in try db.run(Self.updateRoles, [organizationID, userID, text]) > 0 }
    }

    /// See `OrganizationStore.membership(organizationID:userID:)`.
    public func membership(organizationID: String, userID: String) throws -> OrganizationMemberRecord? {
        try database.read { db in try db.one(Self.memberByKey, [organizationID, userID]) { try Self.decodeMember($0) } }
    }

    /// See `OrganizationStore.memberships(userID:)`.
    public func memberships(userID: String) throws -> [OrganizationMembership] {
        try database.read { db in
            try db.query(Self.membershipsOfUser, [userID]) { row in
                OrganizationMembership(organization: try Self.decodeOrganization(row), member: try Self.decodeMember(row, from: 6))
            }
        }
    }

    /// See `OrganizationStore.members(organizationID:limit:after:)`.
    public func members(organizationID: String, limit: Int, after: String?) throws -> [OrganizationMemberRecord] {
        try database.read { db in
            try db.query(Self.memberPage, [organizationID, after ?? "", limit]) { try Self.decodeMember($0) }
        }
    }

    /// See `OrganizationStore.insertInvitation(_:mail:)`.
    public func insertInvitation(_ i: OrganizationInvitationRecord, mail: OutboxMessageRecord?) throws {
        try database.transaction { db in
            try db.run(Self.insertInvitationSQL, [i.id, i.organizationID, i.email, i.role, i.tokenHash, i.createdAt, i.expiresAt,
                                                  i.acceptedAt, i.revokedAt, i.invitedBy, i.acceptedBy])
            if let mail { try SQLMailOutbox.enqueue(mail, on: db) }
        }
    }

    /// See `OrganizationStore.invitation(id:)`.
    public func invitation(id: String) throws -> OrganizationInvitationRecord? {
        try database.read { db in try db.one(Self.invitationByID, [id], Self.decodeInvitation) }
    }

    /// See `OrganizationStore.invitation(tokenHash:)`.
    public func invitation(tokenHash: [UInt8]) throws -> OrganizationInvitationRecord? {
        try database.read { db in try db.one(Self.invitationByToken, [tokenHash], Self.decodeInvitation) }
    }

    /// See `OrganizationStore.invitations(organizationID:)`.
    public func invitations(organizationID: String) throws -> [OrganizationInvitationRecord] {
        try database.read { db in try db.query(Self.invitationsOfOrg, [organizationID], Self.decodeInvitation) }
    }

    /// See `OrganizationStore.renewInvitation(id:tokenHash:expiresAt:now:mail:)`.
    public func renewInvitation(id: String, tokenHash: [UInt8], expiresAt: Date, now: Date, mail: OutboxMessageRecord?) throws -> Bool {
        try database.transaction { db in
            guard try db.run(Self.renew, [id, tokenHash, expiresAt, now]) == 1 else { return false }
            if let mail { try SQLMailOutbox.enqueue(mail, on: db) }
            return true
        }
    }

    /// See `OrganizationStore.revokeInvitation(id:now:)`.
    public func revokeInvitation(id: String, now: Date) throws -> Bool {
        try database.write { db in try db.run(Self.revoke, [id, now]) == 1 }
    }

    /// See `OrganizationStore.acceptInvitation(tokenHash:userID:email:now:)`.
    public func acceptInvitation(tokenHash: [UInt8], userID: String, email: String, now: Date) throws -> InvitationAcceptance {
        try database.transaction { db in try Self.accept(tokenHash: tokenHash, userID: userID, email: email, newUser: nil, now: now, on: db) }
    }

    /// See `OrganizationStore.acceptInvitation(tokenHash:creating:now:)`.
    public func acceptInvitation(tokenHash: [UInt8], creating newUser: UserRecord, now: Date) throws -> InvitationAcceptance {
        try database.transaction { db in
            try Self.accept(tokenHash: tokenHash, userID: newUser.id, email: newUser.email, newUser: newUser, now: now, on: db)
        }
    }

    /// The acceptance inside a transaction: the row read locked, decided, then (when accepted) the
    /// new user if any, the use and the membership.
    static func accept(tokenHash: [UInt8], userID: String, email: String, newUser: UserRecord?, now: Date,
                       on db: any SQLConnection) throws -> InvitationAcceptance {
        let invitation = try db.one(Self.invitationByTokenLocked, [tokenHash], Self.decodeInvitation)
        if let refusal = InvitationAcceptance.decide(invitation, email: email, now: now) { return refusal }
        guard var invitation else { return .unknown }
        if let newUser { try SQLUserStore.insertUserRow(newUser, db) }
        try db.run(Self.markAccepted, [invitation.id, now, userID])
        invitation.acceptedAt = now
        invitation.acceptedBy = userID
        let orgID = invitation.organizationID
        if var member = try db.one(Self.memberByKeyLocked, [orgID, userID], { try Self.decodeMember($0) }) {
            member.roles = Array(Set(member.roles + [invitation.role])).sorted()
            try db.run(Self.updateRoles, [orgID, userID, try Self.rolesText(member.roles)])
            return .accepted(invitation, member)
        }
        try db.run(Self.insertMember, [orgID, userID, try Self.rolesText([invitation.role]), now])
        return .accepted(invitation, OrganizationMemberRecord(organizationID: orgID, userID: userID,
                                                              roles: [invitation.role], createdAt: now))
    }
}
