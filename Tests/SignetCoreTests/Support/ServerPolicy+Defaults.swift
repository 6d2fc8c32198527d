import SignetCore
import SignetServer

extension ServerPolicy {
    /// The policy of the default configuration (every setting at the default `Settings` declares)
    /// with `issuer`: fixtures start from the declared defaults, never from a copy of them.
    init(issuer: String) {
        self = SignetConfiguration.defaults.policy
        self.issuer = issuer
    }
}
