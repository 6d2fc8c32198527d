import SignetWire

/// Every string of the code page and the mailed link's pages.
enum EmailChallengeText: String, CatalogStrings {
    case codeTitle, sentTo, onItsWay, code, submit, newPassword, codeMalformed, codeWrong
    case deadTitle, deadBody, startAgain, otherBrowserTitle, otherBrowserBody
    case confirmTitle, confirmBody, confirmButton, signInTitle, signInBody, signInButton
    case verifiedTitle, verifiedBody, resetTitle, resetButton, resetDoneTitle, resetDoneBody, continueSignIn
    case throttledTitle, throttledBody
}
