import SignetWire

/// What the passkey script tells the person when a ceremony endpoint refuses (the `message` of a
/// `.script` route's error, `OAuthError.telling`), in the page's language; the error's
/// `error_description` stays the developer's English.
enum PasskeyErrorText: String, CatalogStrings {
    case malformed, formNotVerified, requestGone, tooManyRequests, tooManyOpen, challengeGone, otherSession
    case notRegistered, blocked, raced, notVerified, signInFirst, alreadyRegistered, cannotAdd, signInAgain
    /// The gate holds an unconfirmed account's passkey sign-in (`accounts.require_verified_email`).
    case verifyEmailFirst
}
