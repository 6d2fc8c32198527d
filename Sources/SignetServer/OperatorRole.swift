/// A console operator's role (`operator_roles`, set with `signet users role USER admin|viewer|none`):
/// which admin scopes the operator's console sign-in may use.
enum OperatorRole: String, Sendable, CaseIterable {
    /// Every admin scope.
    case admin
    /// The read scopes only.
    case viewer

    /// The admin scopes of the role (a subset of `AdminRoutes.scopes`).
    var scopes: Set<String> {
        switch self {
        case .admin: Set(AdminRoutes.scopes)
        case .viewer: Set(AdminRoutes.scopes.filter { $0.hasSuffix(":read") })
        }
    }
}
