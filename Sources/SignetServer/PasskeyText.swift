import SignetWire

/// Every user-visible string of the passkey pages and the passkey script (which reads its
/// strings from the page's `data-*` attributes, so they are in the page's language).
enum PasskeyText: String, PageStrings {
    case signInButton, failed, cancelled, working
    case offerTitle, offerIntro, offerAdd, offerSkip, offerAdded
    case manageTitle, manageIntro, manageNone, manageAdd, manageAddNeedsScript, manageName, manageRename, manageRemove
    case manageCreated, manageLastUsed, manageNeverUsed, manageSynced, manageDeviceBound, manageFlagged, manageBack
    case signedOutTitle, signedOut, notFound, defaultNameSynced, defaultNameDevice

    var localized: Localized {
        switch self {
        case .signInButton: Localized("Sign in with a passkey", de: "Mit einem Passkey anmelden")
        case .failed: Localized("The passkey could not be used. Try again, or sign in with your password.",
                                de: "Der Passkey konnte nicht verwendet werden. Versuchen Sie es erneut oder melden Sie sich mit Ihrem Passwort an.")
        case .cancelled: Localized("No passkey was used.", de: "Es wurde kein Passkey verwendet.")
        case .working: Localized("Waiting for your passkey…", de: "Warten auf Ihren Passkey …")
        case .offerTitle: Localized("Add a passkey?", de: "Passkey hinzufügen?")
        case .offerIntro: Localized("Next time, sign in with your fingerprint, face or screen lock instead of your password. The passkey stays on your device or in your password manager; Signet keeps only its public key.",
                                    de: "Melden Sie sich beim nächsten Mal mit Fingerabdruck, Gesichtserkennung oder Bildschirmsperre statt mit Ihrem Passwort an. Der Passkey bleibt auf Ihrem Gerät oder in Ihrem Passwortmanager; Signet speichert nur seinen öffentlichen Schlüssel.")
        case .offerAdd: Localized("Add a passkey", de: "Passkey hinzufügen")
        case .offerSkip: Localized("Not now", de: "Nicht jetzt")
        case .offerAdded: Localized("Passkey added.", de: "Passkey hinzugefügt.")
        case .manageTitle: Localized("Passkeys", de: "Passkeys")
        case .manageIntro: Localized("Passkeys let you sign in without a password.", de: "Mit Passkeys melden Sie sich ohne Passwort an.")
        case .manageNone: Localized("You have no passkeys yet.", de: "Sie haben noch keine Passkeys.")
        case .manageAdd: Localized("Add a passkey", de: "Passkey hinzufügen")
        case .manageAddNeedsScript: Localized("Adding a passkey needs JavaScript in a browser that supports passkeys.",
                                              de: "Zum Hinzufügen eines Passkeys ist JavaScript in einem Browser erforderlich, der Passkeys unterstützt.")
        case .manageName: Localized("Name", de: "Name")
        case .manageRename: Localized("Rename", de: "Umbenennen")
        case .manageRemove: Localized("Remove", de: "Entfernen")
        case .manageCreated: Localized("Added", de: "Hinzugefügt")
        case .manageLastUsed: Localized("Last used", de: "Zuletzt verwendet")
        case .manageNeverUsed: Localized("never", de: "nie")
        case .manageSynced: Localized("Synced passkey", de: "Synchronisierter Passkey")
        case .manageDeviceBound: Localized("Passkey on one device", de: "Passkey auf einem Gerät")
        case .manageFlagged: Localized("Blocked: its counter went backwards (it may have been copied). Remove it.",
                                       de: "Gesperrt: Sein Zähler ist zurückgegangen (er wurde möglicherweise kopiert). Entfernen Sie ihn.")
        case .manageBack: Localized("Account", de: "Konto")
        case .signedOutTitle: Localized("Not signed in", de: "Nicht angemeldet")
        case .signedOut: Localized("Sign in to an application first, then open this page again.",
                                   de: "Melden Sie sich zuerst bei einer Anwendung an und öffnen Sie diese Seite dann erneut.")
        case .notFound: Localized("That passkey is not one of yours.", de: "Dieser Passkey gehört nicht zu Ihrem Konto.")
        case .defaultNameSynced: Localized("Passkey", de: "Passkey")
        case .defaultNameDevice: Localized("Security key", de: "Sicherheitsschlüssel")
        }
    }
}
