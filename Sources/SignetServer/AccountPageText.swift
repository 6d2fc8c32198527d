/// Every user-visible string of the account page (`/account`), in English, in one table so that
/// a language table can replace it whole. `%@` marks where a value is put in, in order.
enum AccountPageText {
    static let title = "Your account"
    static let signedInAs = "Signed in as"
    static let emailReadOnly = "Your email address cannot be changed here yet."

    static let profileHeading = "Profile"
    static let nameLabel = "Name"
    static let saveName = "Save name"
    static let nameSaved = "Your name was saved."
    static let nameTooLong = "The name is too long (at most 200 characters, no control characters)."

    static let passwordHeading = "Password"
    static let currentPasswordLabel = "Current password"
    static let newPasswordLabel = "New password"
    static let changePassword = "Change password"
    static let setPasswordHint = "You have no password yet: you sign in with a provider."
    static let passwordChanged = "Your password was changed. Your other sessions were ended, and apps must sign in again."
    static let wrongPassword = "The current password is incorrect."
    static let passwordRules = "At least 8 characters. Very common passwords are refused."

    static let identitiesHeading = "Linked sign-in providers"
    static let noIdentities = "No provider is linked to this account."
    static let linkedSince = "linked %@"
    static let unlink = "Unlink"
    static let unlinked = "The provider was unlinked."
    static let cannotUnlinkLast = "This is your only way to sign in. Set a password or link another provider first."

    static let sessionsHeading = "Active sessions"
    static let thisSession = "This browser"
    static let sessionDetail = "signed in %@, last active %@"
    static let endSession = "End session"
    static let endOtherSessions = "End all other sessions"
    static let sessionEnded = "The session was ended."
    static let otherSessionsEnded = "Your other sessions were ended."

    static let appsHeading = "Apps with access"
    static let noApps = "No app can act for you without signing in."
    static let appDetail = "since %@"
    static let revoke = "Revoke access"
    static let revoked = "The app's access was revoked. It must sign in again."

    static let deleteHeading = "Delete account"
    static let deleteWarning = "Deleting your account removes it and everything linked to it, for good. Apps you signed in to lose access."
    static let deletePasswordLabel = "Your password, to confirm"
    static let deleteFreshHint = "To confirm, sign in again; then you have %@ minutes to delete the account."
    static let reauthenticate = "Sign in again to confirm"
    static let deleteButton = "Delete my account"
    static let deleteNeedsFreshSignIn = "Sign in again to confirm that it is you, then delete the account within a few minutes."

    static let deletedTitle = "Account deleted"
    static let deletedBody = "Your account and everything linked to it were deleted."

    static let notSignedInTitle = "Signed out"
    static let notSignedIn = "Your session has ended. Open the account page again to sign in."
    static let signInIncompleteTitle = "Not signed in"
    static let signInIncomplete = "The sign-in was not completed."
    static let openAccountPage = "Open the account page"
    static let invalidPassword = "The new password was not accepted: %@."
    static let notFound = "That item no longer exists."

    /// `text` with each `%@` replaced by the next value, in order.
    static func format(_ text: String, _ values: String...) -> String {
        var result = "", rest = Substring(text), index = 0
        while let range = rest.range(of: "%@") {
            result += rest[..<range.lowerBound]
            result += index < values.count ? values[index] : ""
            index += 1
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
