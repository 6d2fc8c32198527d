import SignetWire

/// The strings of the sign-in page and its provider buttons.
enum SignInText: String, CatalogStrings {
    case title, continueTo, email, password, submit, failed, continueWith, orWithPassword
}
