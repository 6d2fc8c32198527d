import SignetStore
import SignetWire

/// A refusal of the admin API: its status, a stable `error` code, the field it is about (when it
/// is about one) and a message for the operator. `ErrorRenderer` (kind `.admin`) turns it into
/// `{"error", "field", "message"}`; a 401 or 403 also carries the RFC 6750 `Bearer` challenge.
public struct AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    let status: Int
    /// `invalid_request`, `invalid_token`, `insufficient_scope`, `not_found`, `conflict`,
    /// `precondition_failed`, `precondition_required`, `payload_too_large`,
    /// `unsupported_media_type`, `server_error`.
    let error: String
    /// The field (a JSON body member, `redirect_uris[1]`, a query parameter, a header), or nil.
    let field: String?
    /// What went wrong, for the operator; never a secret.
    let message: String
    /// The scope a 403 asks for (RFC 6750 §3: `scope` in the challenge).
    var scope: String?

    /// `field: message`, as the CLI prints it.
    public var description: String { field.map { "\($0): \(message)" } ?? message }

    /// 400 naming `field`.
    static func invalid(_ field: String?, _ message: String) -> AdminError {
        AdminError(status: 400, error: "invalid_request", field: field, message: message)
    }

    /// 404.
    static func notFound(_ what: String) -> AdminError {
        AdminError(status: 404, error: "not_found", field: nil, message: "No \(what) has this id.")
    }

    /// 409, e.g. an id that is taken.
    static func conflict(_ field: String?, _ message: String) -> AdminError {
        AdminError(status: 409, error: "conflict", field: field, message: message)
    }

    /// 401 `invalid_token` (RFC 6750 §3.1): missing, malformed, expired, wrong audience or issuer.
    static func invalidToken(_ message: String) -> AdminError {
        AdminError(status: 401, error: "invalid_token", field: nil, message: message)
    }

    /// 401 with the bare challenge: no credential at all (RFC 6750 §3.1: then no error code in it).
    static let missingToken = AdminError(status: 401, error: "missing_token", field: "Authorization",
                                         message: "The admin API needs an access token: Authorization: Bearer TOKEN.")

    /// 403 `insufficient_scope` (RFC 6750 §3.1).
    static func insufficientScope(_ scope: String) -> AdminError {
        AdminError(status: 403, error: "insufficient_scope", field: nil, message: "The token lacks the scope \(scope).", scope: scope)
    }

    /// 403 `insufficient_scope`: handing out (or touching a client or role that has) an admin
    /// scope the caller's token lacks (`AdminService.requireHolds`).
    static func cannotHandOut(_ scope: String) -> AdminError {
        AdminError(status: 403, error: "insufficient_scope", field: "scope",
                   message: "Only a token holding \(scope) may give it to a client or role, or change one that has it.", scope: scope)
    }

    /// 403: a console sign-in by a user who holds no operator role (`signet users role`).
    static let noRole = AdminError(status: 403, error: "no_role", field: nil,
                                   message: "This account has no console role; an administrator gives one with signet users role USER admin|viewer.")

    /// 500: the cause goes to the log only.
    static let serverError = AdminError(status: 500, error: "server_error", field: nil, message: "Something went wrong on the server.")

    /// 503 while the store is out of reach (`StoreError.unavailable`); sent with `Retry-After`.
    static let unavailable = AdminError(status: 503, error: "temporarily_unavailable", field: nil,
                                        message: ErrorRenderer.unavailableDescription)

    /// A failure that is not an `AdminError`: `unavailable` when the store is out of reach, else `serverError`.
    static func failure(_ error: any Error) -> AdminError {
        if let store = error as? StoreError, case .unavailable = store { return .unavailable }
        return .serverError
    }
}
