import SignetCore
import SignetWire

/// What a form says when SignetCore refuses what was typed (`UserServiceError.Reason`): the
/// sign-up, reset and email forms show these in the page's language, the CLI keeps SignetCore's
/// English message.
enum ValidationText: String, PageStrings {
    case emailTooLong, emailLocalNotASCII, emailInvalid, emailDomainInvalid
    case passwordTooShort, passwordTooLong, passwordNUL, passwordCommon

    var localized: Localized {
        switch self {
        case .emailTooLong: Localized("The email address is too long.", de: "Die E-Mail-Adresse ist zu lang.")
        case .emailLocalNotASCII: Localized("The part before the @ must be ASCII: addresses with non-ASCII names cannot be used.",
                                            de: "Der Teil vor dem @ muss aus ASCII-Zeichen bestehen: Adressen mit Nicht-ASCII-Namen können nicht verwendet werden.")
        case .emailInvalid: Localized("Not a valid email address.", de: "Keine gültige E-Mail-Adresse.")
        case .emailDomainInvalid: Localized("The part after the @ is not a valid domain.", de: "Der Teil nach dem @ ist keine gültige Domain.")
        // {1}: the minimum length.
        case .passwordTooShort: Localized("The password must have at least {1} characters.", de: "Das Passwort muss mindestens {1} Zeichen haben.")
        case .passwordTooLong: Localized("The password is too long.", de: "Das Passwort ist zu lang.")
        case .passwordNUL: Localized("The password must not contain NUL.", de: "Das Passwort darf kein NUL-Zeichen enthalten.")
        case .passwordCommon: Localized("This password is one of the most commonly used; choose another.",
                                        de: "Dieses Passwort gehört zu den am häufigsten verwendeten; wählen Sie ein anderes.")
        }
    }

    /// The refusal in the page's language; SignetCore's English sentence for an error without a reason.
    static func message(_ error: UserServiceError, _ page: PageContext) -> String {
        guard let reason = error.reason, let key = ValidationText(rawValue: reason.rawValue) else {
            return SelfServiceRoutes.sentence(error.message)
        }
        return key == .passwordTooShort ? page.text(key, String(UserService.minimumPasswordLength)) : page.text(key)
    }
}
