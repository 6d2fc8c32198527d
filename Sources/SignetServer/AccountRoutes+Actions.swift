import Foundation
import SignetCore
import SignetCrypto
import SignetHTTP
import SignetJOSE
import SignetStore
import SignetWire

extension AccountRoutes {
    /// `POST /account/name`: a name of at most 200 characters, no control characters; empty removes it.
    func saveName(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, form in
            let raw = (try? form.single("name")) ?? ""
            let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard name.count <= 200, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return Self.back(.nameTooLong)
            }
            let user = session.user
            try storage.users.updateProfile(userID: user.id, name: name.isEmpty ? nil : name, givenName: user.givenName,
                                            familyName: user.familyName, emailVerified: user.emailVerified, now: clock.now)
            interactive.server.audit("profile_changed", subject: user.id)
            return Self.back(.nameSaved)
        }
    }

    /// `POST /account/password` (on a blocking-work thread: Argon2id): the current password
    /// (throttled like the sign-in page), then the new one under NIST SP 800-63B's rules
    /// (`UserService.checkNewPassword`). `UserService.setPassword` then ends every session and
    /// revokes every grant; this browser gets a new session, so only the *other* sessions end.
    func changePassword(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, form in
            let current = (try? form.single("current_password")) ?? ""
            let new = (try? form.single("new_password")) ?? ""
            guard try interactive.signIn.signIn(email: session.user.email, password: current, clientAddress: request.clientKey)?.id
                    == session.user.id else {
                return Self.back(.wrongPassword)
            }
            do { try UserService.checkNewPassword(new) } catch { return Self.back(.invalidPassword) }
            try users.setPassword(userID: session.user.id, password: new)
            // This browser's session goes on as it was (its methods and `auth_time`), not as a fresh sign-in.
            let started = try interactive.flow.sessions.renew(session)
            var response = Self.back(.passwordChanged)
            response.setCookie(interactive.sessionCookie(started.token))
            return response
        }
    }

    /// `POST /account/unlink`: removes the links of one connection, only when another way to
    /// sign in remains (a password, a link through another connection, or a passkey).
    func unlink(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, form in
            guard let connectionID = try? form.single("connection") else { return errors.malformedForm() }
            let identities = try storage.users.federatedIdentities(userID: session.user.id)
            guard identities.contains(where: { $0.connectionID == connectionID }) else { return Self.back(.notFound) }
            let others = identities.filter { $0.connectionID != connectionID }
            // A passkey signs in too (docs/passkeys.md), so it counts as another way.
            let passkeys = try storage.passkeys.passkeys(userID: session.user.id)
            guard session.user.passwordHash != nil || !others.isEmpty || !passkeys.isEmpty else { return Self.back(.cannotUnlinkLast) }
            _ = try users.unlink(userID: session.user.id, connectionID: connectionID)
            return Self.back(.unlinked)
        }
    }

    /// `POST /account/sessions/end`: ends one of the user's sessions (by its public id).
    func endSession(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, form in
            guard let id = try? form.single("session"), let hash = Base64URL.decode(id),
                  let record = try storage.sessions.session(idHash: hash, now: clock.now), record.userID == session.user.id else {
                return Self.back(.notFound)
            }
            try storage.sessions.endSession(idHash: record.idHash, now: clock.now)
            interactive.server.audit("session_ended", subject: session.user.id)
            var response = Self.back(.sessionEnded)
            if id == session.publicID { response.setCookie(interactive.clearedCookie(interactive.sessionCookieName)) }
            return response
        }
    }

    /// `POST /account/sessions/end-others`: ends every session of the user but this one.
    func endOtherSessions(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, _ in
            let now = clock.now
            var ended = 0
            for record in try storage.sessions.activeSessions(userID: session.user.id, now: now)
            where record.idHash != session.record.idHash {
                if try storage.sessions.endSession(idHash: record.idHash, now: now) { ended += 1 }
            }
            interactive.server.audit("sessions_ended", subject: session.user.id, detail: ["count": .int(Int64(ended))])
            return Self.back(.otherSessionsEnded)
        }
    }

    /// `POST /account/apps/revoke`: revokes one grant family of the user, as `/revoke` would
    /// (RFC 7009 §2.1: the refresh tokens and the access tokens of the grant).
    func revokeApp(_ request: HTTPRequest, _ errors: ErrorRenderer) -> HTTPResponse {
        submission(request, errors) { session, form in
            guard let id = try? form.single("grant"), let grant = try storage.refreshTokens.grant(id: id),
                  grant.userID == session.user.id, grant.isActive(at: clock.now) else {
                return Self.back(.notFound)
            }
            try storage.refreshTokens.revokeGrant(id: grant.grantID, reason: "user_revoked", now: clock.now)
            interactive.server.audit("grant_revoked", subject: session.user.id, client: grant.clientID)
            return Self.back(.revoked)
        }
    }
}
