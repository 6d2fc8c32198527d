import SignetWire

/// The words of the pages an organization's governed domain shows (`sso_required`).
enum DomainText: String, PageStrings {
    case ssoRequiredTitle, passwordRefused, signUpRefused, providerRefused, connectionUnavailable, continueWith, backToSignIn

    var localized: Localized {
        switch self {
        case .ssoRequiredTitle: Localized("Sign in through your organization", de: "Anmeldung über Ihre Organisation")
        // {1}: the domain; {2}: the connection's name (both escaped).
        case .passwordRefused: Localized("Accounts at {1} sign in through {2}, not with a password.",
                                         de: "Konten bei {1} melden sich über {2} an, nicht mit einem Passwort.")
        case .signUpRefused: Localized("Accounts at {1} are not created here: they are made when you first sign in through {2}.",
                                       de: "Konten bei {1} werden hier nicht angelegt: Sie entstehen bei der ersten Anmeldung über {2}.")
        // {3}: the provider that was used.
        case .providerRefused: Localized("Accounts at {1} sign in through {2}, not through {3}.",
                                         de: "Konten bei {1} melden sich über {2} an, nicht über {3}.")
        case .connectionUnavailable: Localized("Accounts at {1} sign in through {2}, which is not available right now. Ask your organization's administrator.",
                                               de: "Konten bei {1} melden sich über {2} an, das gerade nicht verfügbar ist. Wenden Sie sich an die Verwaltung Ihrer Organisation.")
        case .continueWith: Localized("Continue with {1}", de: "Weiter mit {1}")
        case .backToSignIn: Localized("Back to sign-in", de: "Zurück zur Anmeldung")
        }
    }
}
