import SignetMail
import SignetTesting
import Testing

/// SMTP AUTH credentials are a secret: printing them, or a transport that holds them, shows the
/// user name and never the password.
@Suite(.endToEndLimit) struct SMTPCredentialsTests {
    @Test func aPrintedTransportShowsTheUserButNotThePassword() throws {
        let credentials = SMTPCredentials(username: "signet", password: "s3cret-pass")
        let transport = SMTPTransport(endpoint: try SMTPEndpoint("smtp://127.0.0.1:2525"), credentials: credentials)
        for printed in [String(describing: credentials), String(describing: transport), "\(transport)"] {
            #expect(printed.contains("signet"))
            #expect(!printed.contains("s3cret-pass"))
        }
    }
}
