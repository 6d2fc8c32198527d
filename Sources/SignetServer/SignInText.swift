import SignetWire

/// The strings of the sign-in page and its provider buttons.
enum SignInText: String, PageStrings {
    case title, continueTo, email, password, submit, failed, continueWith, orWithPassword

    var localized: Localized {
        switch self {
        case .title: Localized("Sign in", de: "Anmelden")
        // {1}: the client's name, in <strong>.
        case .continueTo: Localized("to continue to {1}", de: "um mit {1} fortzufahren")
        case .email: Localized("Email", de: "E-Mail")
        case .password: Localized("Password", de: "Passwort")
        case .submit: Localized("Sign in", de: "Anmelden")
        // The one message for every failed sign-in (no user enumeration).
        case .failed: Localized("The email or password is incorrect.", de: "E-Mail-Adresse oder Passwort ist falsch.")
        // {1}: the connection's display name.
        case .continueWith: Localized("Sign in with {1}", de: "Mit {1} anmelden")
        case .orWithPassword: Localized("or with your email and password:", de: "oder mit E-Mail-Adresse und Passwort:")
        }
    }
}
