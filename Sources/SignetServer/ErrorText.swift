import SignetWire

/// The strings of the error pages.
enum ErrorText: String, PageStrings {
    case serverError, serverErrorTitle, tryAgainLater, tryAgainLaterTitle, invalidRequest, invalidRequestTitle, goBack
    case requestGone, requestGoneTitle, formExpired, formExpiredTitle, malformedForm, linkGone, linkGoneTitle

    var localized: Localized {
        switch self {
        case .serverError: Localized("Something went wrong on our side.", de: "Bei uns ist etwas schiefgegangen.")
        case .serverErrorTitle: Localized("Server error", de: "Serverfehler")
        case .tryAgainLater: Localized("Try again later.", de: "Bitte versuchen Sie es später noch einmal.")
        case .tryAgainLaterTitle: Localized("Try again later", de: "Später noch einmal versuchen")
        case .invalidRequest: Localized("The request is invalid.", de: "Die Anfrage ist ungültig.")
        case .invalidRequestTitle: Localized("Invalid request", de: "Ungültige Anfrage")
        case .goBack: Localized("Go back to the application and try again.",
                                de: "Kehren Sie zur Anwendung zurück und versuchen Sie es noch einmal.")
        case .requestGone: Localized("This sign-in request has expired or was already used.",
                                     de: "Diese Anmeldeanfrage ist abgelaufen oder wurde schon verwendet.")
        case .requestGoneTitle: Localized("Request expired", de: "Anfrage abgelaufen")
        case .formExpired: Localized("The form could not be verified. Make sure cookies are enabled.",
                                     de: "Das Formular konnte nicht geprüft werden. Bitte erlauben Sie Cookies.")
        case .formExpiredTitle: Localized("Form expired", de: "Formular abgelaufen")
        case .malformedForm: Localized("The form is malformed.", de: "Das Formular ist fehlerhaft.")
        case .linkGone: Localized("This account link has expired, was already used, or was started in another browser. Go back to the application and start again.",
                                  de: "Diese Kontoverknüpfung ist abgelaufen, wurde schon verwendet oder in einem anderen Browser begonnen. Kehren Sie zur Anwendung zurück und beginnen Sie von vorn.")
        case .linkGoneTitle: Localized("Link expired", de: "Verknüpfung abgelaufen")
        }
    }
}
