import SignetWire

/// Every string of the email sign-in page.
enum EmailSignInText: String, PageStrings {
    case title, intro, email, submit, signInLink, back

    var localized: Localized {
        switch self {
        case .title: Localized("Sign in with an email code", de: "Mit einem E-Mail-Code anmelden")
        case .intro: Localized("Enter your email address. We will send a code and a link that sign you in, here, in this browser.",
                               de: "Geben Sie Ihre E-Mail-Adresse ein. Wir senden Ihnen einen Code und einen Link, mit denen Sie sich hier in diesem Browser anmelden.")
        case .email: Localized("Email", de: "E-Mail")
        case .submit: Localized("Email me a code", de: "Code per E-Mail senden")
        case .signInLink: Localized("Email me a sign-in code", de: "Anmeldecode per E-Mail senden")
        case .back: Localized("Sign in with a password instead", de: "Stattdessen mit Passwort anmelden")
        }
    }
}
