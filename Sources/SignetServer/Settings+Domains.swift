/// The `domains` section: how organizations' domain claims are proven (docs/organizations.md).
extension Settings {
    /// The DNS server the TXT proofs are asked of.
    public static let domainsResolver = Setting(\SignetConfiguration.domains.resolver, "resolver", nil,
                                                .optional(.string("IPv4 address[:port]", problem: { text in
                                                    ResolverAddress(parsing: text) == nil
                                                        ? "must be an IPv4 address with an optional port, such as 127.0.0.1:5353" : nil
                                                })),
        "The DNS server asked for the TXT records that prove a domain claim (`_signet-challenge.<domain>`), as an IPv4 address with an optional port (`10.0.0.2`, `127.0.0.1:5353`). Unset: the system resolver (/etc/resolv.conf).")
    /// How long one try waits.
    public static let domainsResolverTimeout = Setting(\SignetConfiguration.domains.resolverTimeout, "resolver_timeout", 5, .seconds(1...30),
        "How long one DNS try waits for an answer (two tries are made).")
    /// The settings of the `domains` object, in reference order.
    public static let domains = SettingsGroup<SignetConfiguration>(key: "domains", title: "Organization domains (DNS proof)", settings: [
        domainsResolver.entry, domainsResolverTimeout.entry,
    ])
}

extension SignetConfiguration {
    /// The `domains` section.
    public struct Domains: Sendable {
        /// `domains.resolver`; nil: the system resolver.
        public var resolver: String? = Settings.domainsResolver.defaultValue
        /// `domains.resolver_timeout`.
        public var resolverTimeout: Int = Settings.domainsResolverTimeout.defaultValue
    }
}
