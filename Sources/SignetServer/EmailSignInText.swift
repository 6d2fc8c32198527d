import SignetWire

/// Every string of the email sign-in page.
enum EmailSignInText: String, AddressPageText, CatalogStrings {
    case title, intro, email, submit, signInLink, back
}
