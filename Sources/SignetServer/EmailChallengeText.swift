/// Every string of the code page and the mailed link's pages, in English.
enum EmailChallengeText {
    static let codeTitle = "Check your email"
    /// Followed by the address.
    static let sentTo = "We are sending a 6-digit code to"
    static let onItsWay = "It can take a minute or two to arrive (if our mail server is slow, it waits in our outbox and is sent as soon as it can be). The code and the link in the mail work for %d minutes."
    static let code = "Code"
    static let submit = "Continue"
    static let newPassword = "New password"
    static let codeMalformed = "Enter the 6 digits from the mail."
    /// Followed by the attempts left.
    static let codeWrong = "That code is not right. Attempts left: "
    static let deadTitle = "This code or link no longer works"
    static let deadBody = "It has expired, was already used, or too many wrong codes were entered. Start again to get a new one."
    static let startAgain = "Start again"
    static let otherBrowserTitle = "Enter the code on the device where you started"
    static let otherBrowserBody = "This link signs in only the browser that asked for it. Go back to that browser and enter the 6-digit code from the mail there."
    static let confirmTitle = "Confirm your email"
    /// Followed by the address.
    static let confirmBody = "Confirm that this address is yours:"
    static let confirmButton = "Confirm my email"
    static let signInTitle = "Sign in"
    /// Followed by the address.
    static let signInBody = "Sign in as"
    static let signInButton = "Sign in"
    static let verifiedTitle = "Your email is confirmed"
    static let verifiedBody = "You can close this page and sign in on the device where you started."
    static let resetTitle = "Choose a new password"
    static let resetButton = "Change password"
    static let resetDoneTitle = "Your password is changed"
    static let resetDoneBody = "Every session of your account was ended and the apps signed in with it were signed out. Sign in with your new password."
    static let continueSignIn = "Continue to sign in"
    static let throttledTitle = "Too many codes"
    static let throttledBody = "Too many codes were asked for this address or from your network. Wait an hour and try again."
}
