import SignetWire

/// The strings of the end-session pages.
enum LogoutText: String, PageStrings {
    case signedOutTitle, signedOut, confirmTitle, confirm, confirmReturning, submit, cannotSignOut

    var localized: Localized {
        switch self {
        case .signedOutTitle: Localized("Signed out", de: "Abgemeldet")
        case .signedOut: Localized("You are signed out. You can close this window.",
                                   de: "Sie sind abgemeldet. Sie können dieses Fenster schließen.")
        case .confirmTitle: Localized("Sign out?", de: "Abmelden?")
        case .confirm: Localized("Do you want to sign out?", de: "Möchten Sie sich abmelden?")
        // {1}: the product's name; {2}: the client's name, in <strong>.
        case .confirmReturning: Localized("Do you want to sign out of {1} and return to {2}?",
                                          de: "Möchten Sie sich von {1} abmelden und zu {2} zurückkehren?")
        case .submit: Localized("Sign out", de: "Abmelden")
        case .cannotSignOut: Localized("Cannot sign out", de: "Abmelden nicht möglich")
        }
    }
}
