import Foundation

extension SignetConfiguration {
    /// Organizations (`organizations`, docs/organizations.md).
    public struct Organizations: Sendable {
        /// How long an invitation's link works, in seconds.
        public var invitationLifetime: Int = Settings.organizationsInvitationLifetime.defaultValue
    }
}
