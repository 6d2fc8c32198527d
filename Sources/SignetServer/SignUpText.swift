import SignetWire

/// Every string of the sign-up page.
enum SignUpText: String, CatalogStrings {
    case title, intro, email, password, passwordHint, name, submit, showPassword, hidePassword
    case haveAccount, signIn, nameTooLong, domainRefused, signInLink, offTitle, offBody, verifyFirstTitle
}
