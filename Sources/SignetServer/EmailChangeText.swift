import SignetWire

/// Every string of changing the account's email: the account page's section and notices, and
/// the pages of the code and link mailed to the new address.
enum EmailChangeText: String, PageStrings {
    case heading, newEmailLabel, passwordLabel, submit, freshHint
    case invalidEmail, unchanged, domainRefused, needsFreshSignIn, changed
    case linkTitle, linkBody, linkButton, doneTitle, doneBody, takenTitle, takenBody

    var localized: Localized {
        switch self {
        case .heading: Localized("Email address", de: "E-Mail-Adresse")
        case .newEmailLabel: Localized("New email address", de: "Neue E-Mail-Adresse")
        case .passwordLabel: Localized("Current password", de: "Aktuelles Passwort")
        case .submit: Localized("Change email", de: "E-Mail-Adresse ändern")
        // {1}: the minutes a sign-in counts as fresh.
        case .freshHint: Localized("To change your email without a password, sign in again first (the last {1} minutes count).",
                                   de: "Um Ihre E-Mail-Adresse ohne Passwort zu ändern, melden Sie sich zuerst erneut an (es zählen die letzten {1} Minuten).")
        case .invalidEmail: Localized("That is not an email address that can be used (one @, at most 254 characters, a domain such as example.com).",
                                      de: "Diese E-Mail-Adresse kann nicht verwendet werden (ein @, höchstens 254 Zeichen, eine Domain wie example.com).")
        case .unchanged: Localized("That is already your email address.", de: "Das ist bereits Ihre E-Mail-Adresse.")
        case .domainRefused: Localized("Addresses of this domain cannot be used here.",
                                       de: "Adressen dieser Domain können hier nicht verwendet werden.")
        case .needsFreshSignIn: Localized("Sign in again to change your email.", de: "Melden Sie sich erneut an, um Ihre E-Mail-Adresse zu ändern.")
        case .changed: Localized("Your email address was changed. A notice went to the old address.",
                                 de: "Ihre E-Mail-Adresse wurde geändert. Die alte Adresse hat eine Nachricht darüber erhalten.")
        case .linkTitle: Localized("Confirm your new email", de: "Neue E-Mail-Adresse bestätigen")
        // {1}: the new address, in <strong>.
        case .linkBody: Localized("Use {1} as the email address of your account.", de: "{1} als E-Mail-Adresse Ihres Kontos verwenden.")
        case .linkButton: Localized("Use this email", de: "Diese E-Mail-Adresse verwenden")
        case .doneTitle: Localized("Your email address was changed", de: "Ihre E-Mail-Adresse wurde geändert")
        // {1}: the new address, in <strong>.
        case .doneBody: Localized("Your account now uses {1}. A notice went to the old address.",
                                  de: "Ihr Konto verwendet jetzt {1}. Die alte Adresse hat eine Nachricht darüber erhalten.")
        case .takenTitle: Localized("The email address was not changed", de: "Die E-Mail-Adresse wurde nicht geändert")
        case .takenBody: Localized("This address cannot be used for your account. Your account keeps its email address.",
                                   de: "Diese Adresse kann für Ihr Konto nicht verwendet werden. Ihr Konto behält seine E-Mail-Adresse.")
        }
    }
}
