import SignetMail
import SignetWire

/// Every table of page strings, for the translation test (`PageTextTests` lists each key that has
/// no German text). A new page's table is one `PageStrings` enum in its own file and one line here.
enum PageText {
    /// The tables, layout first.
    static let tables: [any PageStrings.Type] = [
        LayoutText.self,
        ErrorText.self,
        SignInText.self,
        ConsentText.self,
        LogoutText.self,
        FederationText.self,
        AccountPageText.self,
        EmailChangeText.self,
        ValidationText.self,
        SignUpText.self,
        EmailChallengeText.self,
        RecoveryText.self,
        EmailSignInText.self,
        SecondFactorText.self,
        PasskeyText.self,
        PasskeyErrorText.self,
        MailText.self,
        ConsoleText.self,
        DomainText.self,
        InvitationText.self,
        OrganizationPickerText.self,
    ]

    /// Every key without German text, as `Table.key`.
    static var untranslated: [String] { tables.flatMap { $0.untranslated } }
}
