import SignetWire

/// Every string of the code page and the mailed link's pages.
enum EmailChallengeText: String, PageStrings {
    case codeTitle, sentTo, onItsWay, code, submit, newPassword, codeMalformed, codeWrong
    case deadTitle, deadBody, startAgain, otherBrowserTitle, otherBrowserBody
    case confirmTitle, confirmBody, confirmButton, signInTitle, signInBody, signInButton
    case verifiedTitle, verifiedBody, resetTitle, resetButton, resetDoneTitle, resetDoneBody, continueSignIn
    case throttledTitle, throttledBody

    var localized: Localized {
        switch self {
        case .codeTitle: Localized("Check your email", de: "Prüfen Sie Ihre E-Mails")
        // {1}: the address, in <strong>.
        case .sentTo: Localized("We are sending a 6-digit code to {1}.", de: "Wir senden einen 6-stelligen Code an {1}.")
        // {1}: the minutes the code works.
        case .onItsWay: Localized("It can take a minute or two to arrive (if our mail server is slow, it waits in our outbox and is sent as soon as it can be). The code and the link in the mail work for {1} minutes.",
                                  de: "Es kann ein bis zwei Minuten dauern, bis sie ankommt (ist unser Mailserver langsam, wartet sie in unserem Postausgang und wird gesendet, sobald es möglich ist). Der Code und der Link in der E-Mail sind {1} Minuten lang gültig.")
        case .code: Localized("Code", de: "Code")
        case .submit: Localized("Continue", de: "Weiter")
        case .newPassword: Localized("New password", de: "Neues Passwort")
        case .codeMalformed: Localized("Enter the 6 digits from the mail.", de: "Geben Sie die 6 Ziffern aus der E-Mail ein.")
        // {1}: the attempts left.
        case .codeWrong: Localized("That code is not right. Attempts left: {1}", de: "Dieser Code ist nicht richtig. Verbleibende Versuche: {1}")
        case .deadTitle: Localized("This code or link no longer works", de: "Dieser Code oder Link ist nicht mehr gültig")
        case .deadBody: Localized("It has expired, was already used, or too many wrong codes were entered. Start again to get a new one.",
                                  de: "Er ist abgelaufen, wurde bereits verwendet, oder es wurden zu viele falsche Codes eingegeben. Beginnen Sie von vorn, um einen neuen zu erhalten.")
        case .startAgain: Localized("Start again", de: "Von vorn beginnen")
        case .otherBrowserTitle: Localized("Enter the code on the device where you started",
                                           de: "Geben Sie den Code auf dem Gerät ein, auf dem Sie begonnen haben")
        case .otherBrowserBody: Localized("This link signs in only the browser that asked for it. Go back to that browser and enter the 6-digit code from the mail there.",
                                          de: "Dieser Link meldet nur den Browser an, der ihn angefordert hat. Kehren Sie zu diesem Browser zurück und geben Sie dort den 6-stelligen Code aus der E-Mail ein.")
        case .confirmTitle: Localized("Confirm your email", de: "E-Mail-Adresse bestätigen")
        // {1}: the address, in <strong>.
        case .confirmBody: Localized("Confirm that this address is yours: {1}", de: "Bestätigen Sie, dass diese Adresse Ihnen gehört: {1}")
        case .confirmButton: Localized("Confirm my email", de: "Meine E-Mail-Adresse bestätigen")
        case .signInTitle: Localized("Sign in", de: "Anmelden")
        // {1}: the address, in <strong>.
        case .signInBody: Localized("Sign in as {1}", de: "Anmelden als {1}")
        case .signInButton: Localized("Sign in", de: "Anmelden")
        case .verifiedTitle: Localized("Your email is confirmed", de: "Ihre E-Mail-Adresse ist bestätigt")
        case .verifiedBody: Localized("You can close this page and sign in on the device where you started.",
                                      de: "Sie können diese Seite schließen und sich auf dem Gerät anmelden, auf dem Sie begonnen haben.")
        case .resetTitle: Localized("Choose a new password", de: "Neues Passwort wählen")
        case .resetButton: Localized("Change password", de: "Passwort ändern")
        case .resetDoneTitle: Localized("Your password is changed", de: "Ihr Passwort wurde geändert")
        case .resetDoneBody: Localized("Every session of your account was ended and the apps signed in with it were signed out. Sign in with your new password.",
                                       de: "Alle Sitzungen Ihres Kontos wurden beendet, und die damit angemeldeten Apps wurden abgemeldet. Melden Sie sich mit Ihrem neuen Passwort an.")
        case .continueSignIn: Localized("Continue to sign in", de: "Weiter zur Anmeldung")
        case .throttledTitle: Localized("Too many codes", de: "Zu viele Codes")
        case .throttledBody: Localized("Too many codes were asked for this address or from your network. Wait an hour and try again.",
                                       de: "Für diese Adresse oder aus Ihrem Netzwerk wurden zu viele Codes angefordert. Warten Sie eine Stunde und versuchen Sie es dann erneut.")
        }
    }
}
