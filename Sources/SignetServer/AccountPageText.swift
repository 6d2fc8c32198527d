import SignetWire

/// Every user-visible string of the account page (`/account`).
enum AccountPageText: String, PageStrings {
    case title, signedInAs
    case profileHeading, nameLabel, saveName, nameSaved, nameTooLong
    case passwordHeading, currentPasswordLabel, newPasswordLabel, changePassword, setPasswordHint
    case passwordChanged, wrongPassword, passwordRules
    case identitiesHeading, noIdentities, linkedSince, unlink, unlinked, cannotUnlinkLast
    case securityHeading, passkeysLink, twoStepLink
    case sessionsHeading, thisSession, sessionDetail, endSession, endOtherSessions, sessionEnded, otherSessionsEnded
    case appsHeading, noApps, appDetail, revoke, revoked
    case deleteHeading, deleteWarning, deletePasswordLabel, deleteFreshHint, reauthenticate, deleteButton
    case deleteNeedsFreshSignIn, deletedTitle, deletedBody
    case notSignedInTitle, notSignedIn, signInIncompleteTitle, signInIncomplete, openAccountPage
    case invalidPassword, notFound

    var localized: Localized {
        switch self {
        case .title: Localized("Your account", de: "Ihr Konto")
        // {1}: the email, in <strong>.
        case .signedInAs: Localized("Signed in as {1}", de: "Angemeldet als {1}")

        case .profileHeading: Localized("Profile", de: "Profil")
        case .nameLabel: Localized("Name", de: "Name")
        case .saveName: Localized("Save name", de: "Namen speichern")
        case .nameSaved: Localized("Your name was saved.", de: "Ihr Name wurde gespeichert.")
        case .nameTooLong: Localized("The name is too long (at most 200 characters, no control characters).",
                                     de: "Der Name ist zu lang (höchstens 200 Zeichen, keine Steuerzeichen).")

        case .passwordHeading: Localized("Password", de: "Passwort")
        case .currentPasswordLabel: Localized("Current password", de: "Aktuelles Passwort")
        case .newPasswordLabel: Localized("New password", de: "Neues Passwort")
        case .changePassword: Localized("Change password", de: "Passwort ändern")
        case .setPasswordHint: Localized("You have no password yet: you sign in with a provider.",
                                         de: "Sie haben noch kein Passwort: Sie melden sich über einen Anbieter an.")
        case .passwordChanged: Localized("Your password was changed. Your other sessions were ended, and apps must sign in again.",
                                         de: "Ihr Passwort wurde geändert. Ihre anderen Sitzungen wurden beendet, und Apps müssen sich erneut anmelden.")
        case .wrongPassword: Localized("The current password is incorrect.", de: "Das aktuelle Passwort ist falsch.")
        case .passwordRules: Localized("At least 8 characters. Very common passwords are refused.",
                                       de: "Mindestens 8 Zeichen. Sehr häufige Passwörter werden abgelehnt.")

        case .identitiesHeading: Localized("Linked sign-in providers", de: "Verknüpfte Anmeldeanbieter")
        case .noIdentities: Localized("No provider is linked to this account.",
                                      de: "Mit diesem Konto ist kein Anbieter verknüpft.")
        // {1}: the date.
        case .linkedSince: Localized("linked {1}", de: "verknüpft am {1}")
        case .unlink: Localized("Unlink", de: "Verknüpfung lösen")
        case .unlinked: Localized("The provider was unlinked.", de: "Die Verknüpfung mit dem Anbieter wurde gelöst.")
        case .cannotUnlinkLast: Localized("This is your only way to sign in. Set a password, add a passkey or link another provider first.",
                                          de: "Dies ist Ihre einzige Möglichkeit, sich anzumelden. Legen Sie zuerst ein Passwort fest, fügen Sie einen Passkey hinzu oder verknüpfen Sie einen weiteren Anbieter.")

        case .securityHeading: Localized("Security", de: "Sicherheit")
        case .passkeysLink: Localized("Passkeys", de: "Passkeys")
        case .twoStepLink: Localized("Two-step verification", de: "Bestätigung in zwei Schritten")

        case .sessionsHeading: Localized("Active sessions", de: "Aktive Sitzungen")
        case .thisSession: Localized("This browser", de: "Dieser Browser")
        // {1}: when the session signed in; {2}: when it was last used.
        case .sessionDetail: Localized("signed in {1}, last active {2}", de: "angemeldet am {1}, zuletzt aktiv am {2}")
        case .endSession: Localized("End session", de: "Sitzung beenden")
        case .endOtherSessions: Localized("End all other sessions", de: "Alle anderen Sitzungen beenden")
        case .sessionEnded: Localized("The session was ended.", de: "Die Sitzung wurde beendet.")
        case .otherSessionsEnded: Localized("Your other sessions were ended.", de: "Ihre anderen Sitzungen wurden beendet.")

        case .appsHeading: Localized("Apps with access", de: "Apps mit Zugriff")
        case .noApps: Localized("No app can act for you without signing in.",
                                de: "Keine App kann ohne Anmeldung in Ihrem Namen handeln.")
        // {1}: the date.
        case .appDetail: Localized("since {1}", de: "seit {1}")
        case .revoke: Localized("Revoke access", de: "Zugriff entziehen")
        case .revoked: Localized("The app's access was revoked. It must sign in again.",
                                 de: "Der Zugriff der App wurde entzogen. Sie muss sich erneut anmelden.")

        case .deleteHeading: Localized("Delete account", de: "Konto löschen")
        case .deleteWarning: Localized("Deleting your account removes it and everything linked to it, for good. Apps you signed in to lose access.",
                                       de: "Wenn Sie Ihr Konto löschen, werden es und alles, was damit verknüpft ist, endgültig entfernt. Apps, bei denen Sie angemeldet sind, verlieren den Zugriff.")
        case .deletePasswordLabel: Localized("Your password, to confirm", de: "Ihr Passwort zur Bestätigung")
        // {1}: the number of minutes.
        case .deleteFreshHint: Localized("To confirm, sign in again; then you have {1} minutes to delete the account.",
                                         de: "Melden Sie sich zur Bestätigung erneut an; danach haben Sie {1} Minuten Zeit, das Konto zu löschen.")
        case .reauthenticate: Localized("Sign in again to confirm", de: "Zur Bestätigung erneut anmelden")
        case .deleteButton: Localized("Delete my account", de: "Mein Konto löschen")
        case .deleteNeedsFreshSignIn: Localized("Sign in again to confirm that it is you, then delete the account within a few minutes.",
                                                de: "Melden Sie sich erneut an, um zu bestätigen, dass Sie es sind, und löschen Sie das Konto dann innerhalb weniger Minuten.")

        case .deletedTitle: Localized("Account deleted", de: "Konto gelöscht")
        case .deletedBody: Localized("Your account and everything linked to it were deleted.",
                                     de: "Ihr Konto und alles, was damit verknüpft war, wurden gelöscht.")

        case .notSignedInTitle: Localized("Signed out", de: "Abgemeldet")
        case .notSignedIn: Localized("Your session has ended. Open the account page again to sign in.",
                                     de: "Ihre Sitzung ist abgelaufen. Öffnen Sie die Kontoseite erneut, um sich anzumelden.")
        case .signInIncompleteTitle: Localized("Not signed in", de: "Nicht angemeldet")
        case .signInIncomplete: Localized("The sign-in was not completed.", de: "Die Anmeldung wurde nicht abgeschlossen.")
        case .openAccountPage: Localized("Open the account page", de: "Kontoseite öffnen")
        // {1}: the password rules.
        case .invalidPassword: Localized("The new password was not accepted: {1}.",
                                         de: "Das neue Passwort wurde nicht akzeptiert: {1}.")
        case .notFound: Localized("That item no longer exists.", de: "Dieser Eintrag existiert nicht mehr.")
        }
    }
}
