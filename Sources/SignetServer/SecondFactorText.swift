import SignetWire

/// Every user-visible string of the second-factor pages.
enum SecondFactorText: String, CatalogStrings {
    case codeTitle, codeIntro, codeRecoveryHint, codeLabel, verifyButton, codeWrong, codeLocked, throttledTitle, throttled
    case setupTitle, setupRequired, setupScan, setupKey, setupConfirmLabel, setupButton, qrTitle, alreadySetUp
    case recoveryTitle, recoveryIntro, continueButton
    case accountTitle, accountOn, accountRecoveryLeft, accountReauth, passwordLabel, newCodesButton, removeButton, removed
    case reauthFailed, signInRequiredTitle, signInRequired, backToAccount
}
