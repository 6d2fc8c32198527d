import Foundation

/// Home-realm discovery: which enabled connection, if any, owns an email's domain.
public struct HomeRealmDirectory: Sendable {
    private let owners: [String: String]

    /// Builds the map from the enabled connections' `homeRealmDomains` (the first owner wins;
    /// the configuration reader refuses a domain claimed twice).
    public init(connections: [Connection]) {
        var owners: [String: String] = [:]
        for connection in connections where connection.enabled {
            for domain in connection.homeRealmDomains where owners[domain] == nil { owners[domain] = connection.id }
        }
        self.owners = owners
    }

    /// Whether any domain is mapped.
    public var isEmpty: Bool { owners.isEmpty }

    /// The connection id for an email address, or nil when its domain is not mapped.
    public func connectionID(forEmail email: String) -> String? {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let domain = Connection.domain(of: trimmed) else { return nil }
        return owners[domain]
    }
}
