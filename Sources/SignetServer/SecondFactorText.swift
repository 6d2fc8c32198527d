import SignetWire

/// Every user-visible string of the second-factor pages.
enum SecondFactorText: String, PageStrings {
    case codeTitle, codeIntro, codeRecoveryHint, codeLabel, verifyButton, codeWrong, throttledTitle, throttled
    case setupTitle, setupRequired, setupScan, setupKey, setupConfirmLabel, setupButton, qrTitle, alreadySetUp
    case recoveryTitle, recoveryIntro, continueButton
    case accountTitle, accountOn, accountRecoveryLeft, accountReauth, passwordLabel, newCodesButton, removeButton, removed
    case reauthFailed, signInRequiredTitle, signInRequired, backToAccount

    var localized: Localized {
        switch self {
        case .codeTitle: Localized("Two-step verification", de: "Bestätigung in zwei Schritten")
        case .codeIntro: Localized("Enter the 6-digit code from your authenticator app.",
                                   de: "Geben Sie den 6-stelligen Code aus Ihrer Authentifizierungs-App ein.")
        case .codeRecoveryHint: Localized("Lost your phone? Enter one of your recovery codes instead.",
                                          de: "Telefon verloren? Geben Sie stattdessen einen Ihrer Wiederherstellungscodes ein.")
        case .codeLabel: Localized("Code", de: "Code")
        case .verifyButton: Localized("Verify", de: "Bestätigen")
        case .codeWrong: Localized("That code did not work. Codes change every 30 seconds, and each works once.",
                                   de: "Dieser Code hat nicht funktioniert. Codes ändern sich alle 30 Sekunden, und jeder gilt nur einmal.")
        case .throttledTitle: Localized("Too many attempts", de: "Zu viele Versuche")
        case .throttled: Localized("Too many codes were tried for this account. Wait a few minutes, then try again.",
                                   de: "Für dieses Konto wurden zu viele Codes ausprobiert. Warten Sie einige Minuten und versuchen Sie es dann erneut.")
        case .setupTitle: Localized("Set up two-step verification", de: "Bestätigung in zwei Schritten einrichten")
        case .setupRequired: Localized("This sign-in needs a second step. Set up an authenticator app to go on.",
                                       de: "Diese Anmeldung erfordert einen zweiten Schritt. Richten Sie eine Authentifizierungs-App ein, um fortzufahren.")
        case .setupScan: Localized("Scan this QR code with your authenticator app (for example Google Authenticator, Microsoft Authenticator, 1Password or Aegis).",
                                   de: "Scannen Sie diesen QR-Code mit Ihrer Authentifizierungs-App (zum Beispiel Google Authenticator, Microsoft Authenticator, 1Password oder Aegis).")
        case .setupKey: Localized("Can't scan it? Enter this key in the app instead (time-based, 6 digits, 30 seconds):",
                                  de: "Scannen nicht möglich? Geben Sie stattdessen diesen Schlüssel in der App ein (zeitbasiert, 6 Ziffern, 30 Sekunden):")
        case .setupConfirmLabel: Localized("Code from the app", de: "Code aus der App")
        case .setupButton: Localized("Turn on", de: "Aktivieren")
        case .qrTitle: Localized("QR code for your authenticator app", de: "QR-Code für Ihre Authentifizierungs-App")
        case .alreadySetUp: Localized("Two-step verification is already set up.", de: "Die Bestätigung in zwei Schritten ist bereits eingerichtet.")
        case .recoveryTitle: Localized("Save your recovery codes", de: "Speichern Sie Ihre Wiederherstellungscodes")
        case .recoveryIntro: Localized("Each code works once, if you lose access to your authenticator app. They are shown only now: print them or keep them in a password manager.",
                                       de: "Jeder Code gilt einmal, falls Sie keinen Zugriff mehr auf Ihre Authentifizierungs-App haben. Sie werden nur jetzt angezeigt: Drucken Sie sie aus oder bewahren Sie sie in einem Passwortmanager auf.")
        case .continueButton: Localized("Continue", de: "Weiter")
        case .accountTitle: Localized("Authenticator app", de: "Authentifizierungs-App")
        case .accountOn: Localized("Two-step verification is on. Signing in asks for a code from your authenticator app.",
                                   de: "Die Bestätigung in zwei Schritten ist aktiv. Bei der Anmeldung wird ein Code aus Ihrer Authentifizierungs-App abgefragt.")
        // {1}: how many recovery codes are unused.
        case .accountRecoveryLeft: Localized("Recovery codes left: {1} of 10.", de: "Verbleibende Wiederherstellungscodes: {1} von 10.")
        case .accountReauth: Localized("To change this, confirm it is you: your password (if your account has one) and a current code or a recovery code.",
                                       de: "Bestätigen Sie für eine Änderung, dass Sie es sind: mit Ihrem Passwort (falls Ihr Konto eines hat) und einem aktuellen Code oder einem Wiederherstellungscode.")
        case .passwordLabel: Localized("Password", de: "Passwort")
        case .newCodesButton: Localized("New recovery codes", de: "Neue Wiederherstellungscodes")
        case .removeButton: Localized("Turn off and remove", de: "Deaktivieren und entfernen")
        case .removed: Localized("Two-step verification is off. You can set it up again below.",
                                 de: "Die Bestätigung in zwei Schritten ist deaktiviert. Sie können sie unten erneut einrichten.")
        case .reauthFailed: Localized("The password or the code is incorrect.", de: "Das Passwort oder der Code ist falsch.")
        case .signInRequiredTitle: Localized("Sign in required", de: "Anmeldung erforderlich")
        case .signInRequired: Localized("Sign in first to manage two-step verification.",
                                        de: "Melden Sie sich zuerst an, um die Bestätigung in zwei Schritten zu verwalten.")
        case .backToAccount: Localized("Back to security settings", de: "Zurück zu den Sicherheitseinstellungen")
        }
    }
}
