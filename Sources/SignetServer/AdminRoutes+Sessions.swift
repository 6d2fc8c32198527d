import Foundation
import SignetHTTP
import SignetJOSE
import SignetStore

/// The admin operations on a user's sessions, grants, second factors and consents, and on the
/// configured connections. Least privilege: reading sessions and grants (`admin:sessions:read`)
/// is apart from ending them (`admin:sessions:write`), consents likewise, and connections are
/// read only (`admin:connections:read`: they come from the configuration).
extension AdminRoutes {
    static func sessionOperations() -> [AdminOperation] {
        [
            userList(userSessions, "listUserSessions",
                     "The user's active sessions, ordered by id (the public id of the session, never its cookie).",
                     scope: "admin:sessions:read", schema: "SessionList", list: AdminService.sessions),
            userItem(userSession, "endUserSession",
                     "Ends one session of the user and revokes the grants signed in through it (their refresh tokens fail at /token with invalid_grant).",
                     scope: "admin:sessions:write", parameter: "session", success: (200, "RevokeResult")) { service, user, session in
                let ended = try service.endSession(user, sessionID: session)
                return HTTPResponse.admin(["sessions": .int(Int64(ended.sessions)), "grants": .int(Int64(ended.grants))])
            },
            userList(userGrants, "listUserGrants",
                     "The user's active grants that hold a refresh token (the apps that act for the user), ordered by id.",
                     scope: "admin:sessions:read", schema: "GrantList", list: AdminService.grants),
            userRemoval(userGrant, "revokeUserGrant",
                        "Revokes one grant of the user: its refresh tokens fail at /token with invalid_grant, its access tokens wherever the grant is checked.",
                        scope: "admin:sessions:write", parameter: "grant", remove: AdminService.revokeGrant),
            AdminOperation(method: .GET, path: userSecondFactors, operationID: "getUserSecondFactors",
                           summary: "The user's second factors: the authenticator app (none, pending or confirmed) and the unused recovery codes.",
                           scope: "admin:users:read", requestSchema: nil, success: (200, "SecondFactors"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return HTTPResponse.admin(try call.service.secondFactors(try call.service.user(try AdminRequest.id(call.request))))
            },
            AdminOperation(method: .DELETE, path: userSecondFactors, operationID: "resetUserSecondFactors",
                           summary: "Removes the user's authenticator app and recovery codes (audited second_factors_reset); the user can enrol again.",
                           scope: "admin:users:write", requestSchema: nil, success: (200, "SecondFactors"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return HTTPResponse.admin(try call.service.resetSecondFactors(try call.service.user(try AdminRequest.id(call.request))))
            },
        ]
    }

    static func consentOperations() -> [AdminOperation] {
        [
            userList(userConsents, "listUserConsents", "The user's remembered consents, ordered by client id.",
                     scope: "admin:consents:read", schema: "ConsentList", list: AdminService.consents),
            userRemoval(userConsent, "revokeUserConsent",
                        "Forgets the user's consent to one client: its next authorization asks again (grants already made stay until revoked).",
                        scope: "admin:consents:write", parameter: "client", remove: AdminService.revokeConsent),
        ]
    }

    static func connectionOperations() -> [AdminOperation] {
        [
            listOperation(connections, "listConnections",
                          "The configured connections ordered by id, each with the callback URL to register at the provider and this node's view of its status and last error; `filter` matches the id or display name.",
                          scope: "admin:connections:read", schema: "ConnectionList") { service, page in
                try service.connections(limit: page.limit, cursor: page.cursor, filter: page.filter)
            },
            AdminOperation(method: .GET, path: connection, operationID: "getConnection",
                           summary: "One connection, with its callback URL, status and last error (this node's memory; a restart forgets it).",
                           scope: "admin:connections:read", requestSchema: nil, success: (200, "Connection"), query: [], needsMatch: false) { call in
                try AdminRequest.noQuery(call.request)
                return HTTPResponse.admin(try call.service.connection(try AdminRequest.id(call.request)))
            },
        ]
    }

    /// `DELETE` of one item under one user that answers 204: the service's `remove` method.
    static func userRemoval(_ path: String, _ id: String, _ summary: String, scope: String, parameter: String,
                            remove: @escaping @Sendable (AdminService) -> (UserRecord, String) throws -> Void) -> AdminOperation {
        userItem(path, id, summary, scope: scope, parameter: parameter, success: (204, nil)) { service, user, item in
            try remove(service)(user, item)
            return HTTPResponse.empty(status: 204)
        }
    }

    /// `DELETE` of one item under one user (`/admin/v1/users/{id}/…/{parameter}`): 404 for an unknown user.
    static func userItem(_ path: String, _ id: String, _ summary: String, scope: String, parameter: String,
                         success: (status: Int, schema: String?),
                         _ body: @escaping @Sendable (AdminService, UserRecord, String) throws -> HTTPResponse) -> AdminOperation {
        AdminOperation(method: .DELETE, path: path, operationID: id, summary: summary, scope: scope, requestSchema: nil,
                       success: success, query: [], needsMatch: false) { call in
            try AdminRequest.noQuery(call.request)
            let user = try call.service.user(try AdminRequest.id(call.request))
            return try body(call.service, user, try AdminRequest.parameter(call.request, parameter))
        }
    }

    /// A paged list under one user (`/admin/v1/users/{id}/…`): 404 for an unknown user; `list` is
    /// the service's method that reads one page (user, limit, cursor).
    static func userList(_ path: String, _ id: String, _ summary: String, scope: String, schema: String,
                         list: @escaping @Sendable (AdminService) -> (UserRecord, Int, String?) throws
                             -> (items: [JSONValue], next: String?)) -> AdminOperation {
        AdminOperation(method: .GET, path: path, operationID: id, summary: summary, scope: scope, requestSchema: nil,
                       success: (200, schema), query: ["limit", "cursor"], needsMatch: false) { call in
            let page = try AdminRequest.page(call.request, filter: false)
            let user = try call.service.user(try AdminRequest.id(call.request))
            let result = try list(call.service)(user, page.limit, page.cursor)
            return HTTPResponse.admin(["items": .array(result.items), "next_cursor": result.next.map(JSONValue.string) ?? .null])
        }
    }
}
