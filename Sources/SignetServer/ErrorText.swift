import SignetWire

/// The strings of the error pages.
enum ErrorText: String, CatalogStrings {
    case serverError, serverErrorTitle, tryAgainLater, tryAgainLaterTitle, invalidRequest, invalidRequestTitle, goBack
    case requestGone, requestGoneTitle, formExpired, formExpiredTitle, malformedForm, linkGone, linkGoneTitle
}
