extension Settings {
    // MARK: organizations
    /// How long an invitation link works.
    public static let organizationsInvitationLifetime = Setting(
        \SignetConfiguration.organizations.invitationLifetime, "invitation_lifetime", 604_800, .seconds(3_600...2_592_000),
        "How long the link of an organization invitation works (7 days by default); a resent invitation gets a new link and a new period, and the old link stops working.")
    /// The settings of the `organizations` object, in reference order.
    public static let organizations = SettingsGroup<SignetConfiguration>(key: "organizations", title: "Organizations", settings: [
        organizationsInvitationLifetime.entry,
    ])
}
