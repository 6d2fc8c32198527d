import Foundation
import SignetFederation
import SignetJOSE

/// The configured upstream connections as the admin API shows them: what they are, the
/// callback URL to register at the provider, and what this node last saw of the provider.
///
/// Connections come from the configuration (`connections[]`), so the API reads them and never
/// writes them. The status is this node's memory (`UpstreamStatus`): another node behind the
/// same load balancer may have seen other calls, and a restart forgets it.
extension AdminService {
    /// The server's connections, or (on the CLI) the configuration's.
    func configuredFederation() throws -> Federation {
        if let federation { return federation }
        return try Federation(configuration: environment.configuration, clock: { [clock = environment.clock] in clock.now })
    }

    /// A page of the connections ordered by id, whose id or display name contains `filter`.
    func connections(limit: Int, cursor: String?, filter: String?) throws -> (items: [JSONValue], next: String?) {
        let federation = try configuredFederation()
        let matching = federation.connections.filter { connection in
            guard let filter, !filter.isEmpty else { return true }
            return connection.id.localizedCaseInsensitiveContains(filter) || connection.displayName.localizedCaseInsensitiveContains(filter)
        }.sorted { $0.id < $1.id }
        return Self.page(matching, id: \.id, limit: limit, cursor: cursor) { Self.json($0, federation: federation) }
    }

    /// One connection, or 404.
    func connection(_ id: String) throws -> JSONValue {
        let federation = try configuredFederation()
        guard let connection = federation.connections.first(where: { $0.id == id }) else { throw AdminError.notFound("connection") }
        return Self.json(connection, federation: federation)
    }

    /// `status`: `disabled` (configured off), `native_only` (an Apple connection without the key
    /// its web flow needs: only native ID-token sign-in), `unused` (no provider step on this node
    /// since it started), `ok` (the last step succeeded) or `failing` (the last step failed;
    /// `last_error` says when and why, without a token, code or email).
    static func json(_ connection: Connection, federation: Federation) -> JSONValue {
        let provider = federation.enabledProvider(connection.id)
        let observed = provider?.status
        let status: String
        if !connection.enabled { status = "disabled" } else if let observed {
            if observed.isFailing { status = "failing" } else if observed.lastSuccessAt != nil { status = "ok" } else { status = "unused" }
        } else {
            status = "native_only"
        }
        var lastError: JSONValue = .null
        if let observed, let at = observed.lastFailureAt, let error = observed.lastError {
            lastError = .object(["at": .string(stamp(at)), "reason": .string(FederationRoutes.reason(error)), "message": .string(error.description)])
        }
        return .object([
            "id": .string(connection.id), "type": .string(connection.type.rawValue), "display_name": .string(connection.displayName),
            "enabled": .bool(connection.enabled), "issuer": .string(connection.issuer), "client_id": .string(connection.clientID),
            "callback_url": .string(federation.callbackURL(connection.id)), "status": .string(status),
            "last_success_at": observed?.lastSuccessAt.map { .string(stamp($0)) } ?? .null, "last_error": lastError,
        ])
    }
}
