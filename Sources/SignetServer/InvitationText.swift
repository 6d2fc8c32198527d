import SignetWire

/// Every string of an organization invitation's page (`/invitation`).
enum InvitationText: String, CatalogStrings {
    case title, invited, forAddress, signedInAs, accept
    case otherEmailTitle, otherEmail, switchAccount
    case signInToAccept, haveAccount, createHeading, createIntro, create
    case accountExists, governed
    case acceptedTitle, accepted, continueToAccount
    case unknownTitle, unknown, usedTitle, used, revokedTitle, revoked, expiredTitle, expired
}
