import SignetWire

/// Every string of the forgotten-password page.
enum RecoveryText: String, PageStrings {
    case title, intro, email, submit, signInLink, back

    var localized: Localized {
        switch self {
        case .title: Localized("Reset your password", de: "Passwort zurücksetzen")
        case .intro: Localized("Enter the email address of your account. We will send a code and a link to choose a new password.",
                               de: "Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen Code und einen Link, mit denen Sie ein neues Passwort wählen können.")
        case .email: Localized("Email", de: "E-Mail")
        case .submit: Localized("Send the code", de: "Code senden")
        case .signInLink: Localized("Forgot password?", de: "Passwort vergessen?")
        case .back: Localized("Back to sign in", de: "Zurück zur Anmeldung")
        }
    }
}
