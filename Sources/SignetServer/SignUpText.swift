import SignetWire

/// Every string of the sign-up page.
enum SignUpText: String, PageStrings {
    case title, intro, email, password, passwordHint, name, submit, showPassword, hidePassword
    case haveAccount, signIn, nameTooLong, domainRefused, signInLink, offTitle, offBody, verifyFirstTitle

    var localized: Localized {
        switch self {
        case .title: Localized("Create your account", de: "Konto erstellen")
        // {1}: the client's name, in <strong>.
        case .intro: Localized("to continue to {1}", de: "um mit {1} fortzufahren")
        case .email: Localized("Email", de: "E-Mail")
        case .password: Localized("Password", de: "Passwort")
        case .passwordHint: Localized("At least 8 characters. Any characters, spaces too; very common passwords are refused.",
                                      de: "Mindestens 8 Zeichen. Alle Zeichen sind erlaubt, auch Leerzeichen; sehr häufige Passwörter werden abgelehnt.")
        case .name: Localized("Name (optional)", de: "Name (optional)")
        case .submit: Localized("Create account", de: "Konto erstellen")
        case .showPassword: Localized("Show password", de: "Passwort anzeigen")
        case .hidePassword: Localized("Hide password", de: "Passwort verbergen")
        case .haveAccount: Localized("Already have an account?", de: "Sie haben bereits ein Konto?")
        case .signIn: Localized("Sign in", de: "Anmelden")
        case .nameTooLong: Localized("The name is too long (at most 200 characters).", de: "Der Name ist zu lang (höchstens 200 Zeichen).")
        // {1}: the allowed domains, comma-separated.
        case .domainRefused: Localized("Accounts can only be created with an address at: {1}",
                                       de: "Konten können nur mit einer Adresse unter folgenden Domains erstellt werden: {1}")
        case .signInLink: Localized("Create account", de: "Konto erstellen")
        case .offTitle: Localized("Sign-up is not available", de: "Registrierung nicht verfügbar")
        case .offBody: Localized("Accounts on this server are created by its administrators.",
                                 de: "Konten auf diesem Server werden von den Administratoren angelegt.")
        case .verifyFirstTitle: Localized("Confirm your email first", de: "Bestätigen Sie zuerst Ihre E-Mail-Adresse")
        }
    }
}
