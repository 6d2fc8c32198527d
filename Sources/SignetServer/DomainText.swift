import SignetWire

/// The words of the pages an organization's governed domain shows (`sso_required`).
enum DomainText: String, CatalogStrings {
    case ssoRequiredTitle, passwordRefused, signUpRefused, codeRefused, providerRefused, connectionUnavailable, continueWith, backToSignIn
}
