import SignetWire

/// Every string of the forgotten-password page.
enum RecoveryText: String, AddressPageText, CatalogStrings {
    case title, intro, email, submit, signInLink, back
}
