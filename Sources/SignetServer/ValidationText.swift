import SignetCore
import SignetWire

/// What a form says when SignetCore refuses what was typed (`UserServiceError.Reason`): the
/// sign-up, reset and email forms show these in the page's language, the CLI keeps SignetCore's
/// English message.
enum ValidationText: String, CatalogStrings {
    case emailTooLong, emailLocalNotASCII, emailInvalid, emailDomainInvalid
    case passwordTooShort, passwordTooLong, passwordNUL, passwordCommon


    /// The refusal in the page's language; SignetCore's English sentence for an error without a reason.
    static func message(_ error: UserServiceError, _ page: PageContext) -> String {
        guard let reason = error.reason, let key = ValidationText(rawValue: reason.rawValue) else {
            return SelfServiceRoutes.sentence(error.message)
        }
        return key == .passwordTooShort ? page.text(key, String(UserService.minimumPasswordLength)) : page.text(key)
    }
}
