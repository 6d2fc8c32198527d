import SignetWire

/// The strings of the consent page.
enum ConsentText: String, CatalogStrings {
    case title, wouldLike, scopeOpenID, scopeProfile, scopeEmail, scopeOfflineAccess, scopeOther, accessFor, signedInAs, allow, deny
    case chooseAllowOrDeny, scopeOrganization
}
