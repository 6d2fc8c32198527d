import SignetWire

/// The strings of the consent page.
enum ConsentText: String, PageStrings {
    case title, wouldLike, scopeOpenID, scopeProfile, scopeEmail, scopeOfflineAccess, scopeOther, accessFor, signedInAs, allow, deny
    case chooseAllowOrDeny

    var localized: Localized {
        switch self {
        case .title: Localized("Allow access?", de: "Zugriff erlauben?")
        // {1}: the client's name, in <strong>.
        case .wouldLike: Localized("{1} would like to:", de: "{1} möchte:")
        case .scopeOpenID: Localized("Know who you are (your account identifier)", de: "wissen, wer Sie sind (Ihre Konto-Kennung)")
        case .scopeProfile: Localized("See your name and basic profile", de: "Ihren Namen und Ihr Basisprofil sehen")
        case .scopeEmail: Localized("See your email address", de: "Ihre E-Mail-Adresse sehen")
        case .scopeOfflineAccess: Localized("Stay signed in and act for you when you are not using the app",
                                            de: "angemeldet bleiben und für Sie handeln, wenn Sie die App nicht benutzen")
        // {1}: the scope's name.
        case .scopeOther: Localized("Use the permission “{1}”", de: "die Berechtigung „{1}“ nutzen")
        case .accessFor: Localized("Access is for:", de: "Der Zugriff gilt für:")
        // {1}: the user's email.
        case .signedInAs: Localized("Signed in as {1}.", de: "Angemeldet als {1}.")
        case .allow: Localized("Allow", de: "Erlauben")
        case .deny: Localized("Deny", de: "Ablehnen")
        case .chooseAllowOrDeny: Localized("Choose Allow or Deny.", de: "Wählen Sie „Erlauben“ oder „Ablehnen“.")
        }
    }
}
