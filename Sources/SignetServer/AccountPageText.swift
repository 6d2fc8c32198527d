import SignetWire

/// Every user-visible string of the account page (`/account`).
enum AccountPageText: String, CatalogStrings {
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
}
