import SignetCore

extension ServerEnvironment {
    /// Organizations' domain claims over this environment's store, recorded through `auditor`
    /// (the CLI passes one bound to its actor, the server its own).
    public func makeDomainClaims(auditor: Auditor? = nil) -> DomainClaims {
        DomainClaims(store: storage.organizationDomains,
                     auditor: auditor ?? Auditor(log: storage.audit, clock: clock),
                     clock: clock, random: random)
    }

    /// The TXT resolver of `domains.resolver` (the system's when unset).
    public var txtResolver: any TXTResolver { ResolvTXTResolver(configuration.domains) }
}
