import SignetWire

/// The strings of the federation pages: linking an identity to an existing account, and the
/// refusals of a provider round trip.
enum FederationText: String, CatalogStrings {
    case linkTitle, linkExplanation, linkNoPassword, backToSignIn, linkPassword, linkSubmit, linkNextTime, useAnotherAccount
    case notCompletedTitle, optionOff, optionNotConfigured, optionUnavailable, answerMalformed, answerForeign, answerOtherProvider
    case expired, otherBrowser, linkMalformed, linkExpired, unknownOptionTitle, cannotReachTitle
}
