/// Every string of the forgotten-password page, in English.
enum RecoveryText {
    static let title = "Reset your password"
    static let intro = "Enter the email address of your account. We will send a code and a link to choose a new password."
    static let email = "Email"
    static let submit = "Send the code"
    static let signInLink = "Forgot password?"
    static let back = "Back to sign in"
}
