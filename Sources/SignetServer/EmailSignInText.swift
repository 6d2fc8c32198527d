/// Every string of the email sign-in page, in English.
enum EmailSignInText {
    static let title = "Sign in with an email code"
    static let intro = "Enter your email address. We will send a code and a link that sign you in, here, in this browser."
    static let email = "Email"
    static let submit = "Email me a code"
    static let signInLink = "Email me a sign-in code"
    static let back = "Sign in with a password instead"
}
