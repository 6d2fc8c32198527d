import SignetCore

extension AdminService {
    /// The service acting for `principal`: its audit actor, and the scopes it may hand out.
    func acting(as principal: AdminPrincipal) -> AdminService {
        var acting = self
        acting.actor = principal.actor
        acting.heldScopes = principal.scopes
        return acting
    }

    /// The one rule against escalation through the admin API and the console: a caller may give
    /// a client or a console role an admin scope, or change, delete or re-key a client or role
    /// that has one, only when its own token holds that scope (the admin resource alone grants
    /// nothing: every admin operation needs a scope). The operator on the data folder may.
    func requireHolds<Scopes: Sequence<String>>(_ scopes: Scopes) throws(AdminError) {
        guard let heldScopes else { return }
        if let missing = scopes.filter({ $0.hasPrefix(AdminRoutes.scopePrefix) && !heldScopes.contains($0) }).sorted().first {
            throw AdminError.cannotHandOut(missing)
        }
    }

    /// Every token of the spec's scope as written (the registration's default has no admin scope),
    /// so nothing the registration could store escapes `requireHolds`.
    static func scopeTokens(_ spec: ClientSpec) -> [String] {
        (spec.scope ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }
}
