import SignetWire

/// The strings of the end-session pages.
enum LogoutText: String, CatalogStrings {
    case signedOutTitle, signedOut, confirmTitle, confirm, confirmReturning, submit, cannotSignOut
}
