import SignetWire

/// The strings of the federation pages: linking an identity to an existing account, and the
/// refusals of a provider round trip.
enum FederationText: String, PageStrings {
    case linkTitle, linkExplanation, linkNoPassword, backToSignIn, linkPassword, linkSubmit, linkNextTime, useAnotherAccount
    case notCompletedTitle, optionOff, optionNotConfigured, optionUnavailable, answerMalformed, answerForeign, answerOtherProvider
    case expired, otherBrowser, linkMalformed, linkExpired, unknownOptionTitle, cannotReachTitle

    var localized: Localized {
        switch self {
        // {1}: the provider's name.
        case .linkTitle: Localized("Link your {1} sign-in", de: "Ihre Anmeldung mit {1} verknüpfen")
        // {1}: the account's email, in <strong>; {2}: the provider's name.
        case .linkExplanation: Localized("An account for {1} already exists. To keep it safe, your {2} sign-in is linked to it only after you prove it is yours.",
                                         de: "Für {1} gibt es schon ein Konto. Zu seinem Schutz wird Ihre Anmeldung mit {2} erst damit verknüpft, wenn Sie zeigen, dass es Ihres ist.")
        case .linkNoPassword: Localized("This account has no password. Sign in the way you did before.",
                                        de: "Dieses Konto hat kein Passwort. Melden Sie sich so an wie bisher.")
        case .backToSignIn: Localized("Back to sign-in", de: "Zurück zur Anmeldung")
        case .linkPassword: Localized("Password of this account", de: "Passwort dieses Kontos")
        case .linkSubmit: Localized("Link and continue", de: "Verknüpfen und fortfahren")
        case .linkNextTime: Localized("Next time you can sign in with either.", de: "Künftig können Sie sich mit beidem anmelden.")
        case .useAnotherAccount: Localized("Use another account", de: "Ein anderes Konto verwenden")
        case .notCompletedTitle: Localized("Sign-in not completed", de: "Anmeldung nicht abgeschlossen")
        case .optionOff: Localized("This sign-in option is turned off.", de: "Diese Anmeldemöglichkeit ist abgeschaltet.")
        case .optionNotConfigured: Localized("This sign-in option is not configured.", de: "Diese Anmeldemöglichkeit ist nicht eingerichtet.")
        case .optionUnavailable: Localized("This sign-in option is not available.", de: "Diese Anmeldemöglichkeit steht nicht zur Verfügung.")
        case .answerMalformed: Localized("The provider's answer is malformed.", de: "Die Antwort des Anbieters ist fehlerhaft.")
        case .answerForeign: Localized("The sign-in answer does not belong to a sign-in started here.",
                                       de: "Die Antwort gehört zu keiner hier begonnenen Anmeldung.")
        case .answerOtherProvider: Localized("The sign-in answer does not belong to this provider.",
                                             de: "Die Antwort gehört nicht zu diesem Anbieter.")
        case .expired: Localized("This sign-in has expired or was already used. Go back to the application and start again.",
                                 de: "Diese Anmeldung ist abgelaufen oder wurde schon verwendet. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.")
        case .otherBrowser: Localized("This sign-in was started in another browser. Go back to the application and start again.",
                                      de: "Diese Anmeldung wurde in einem anderen Browser begonnen. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.")
        case .linkMalformed: Localized("This sign-in link is malformed. Go back to the application and start again.",
                                       de: "Dieser Anmeldelink ist fehlerhaft. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.")
        case .linkExpired: Localized("This sign-in link has expired or was already used. Go back to the application and start again.",
                                     de: "Dieser Anmeldelink ist abgelaufen oder wurde schon verwendet. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.")
        case .unknownOptionTitle: Localized("Unknown sign-in option", de: "Unbekannte Anmeldemöglichkeit")
        // {1}: the provider's name.
        case .cannotReachTitle: Localized("Cannot reach {1}", de: "{1} ist nicht erreichbar")
        }
    }
}
