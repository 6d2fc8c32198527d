import Foundation
import SignetClientCore
import SignetCore
import SignetFormEncoding
import SignetServer
import SignetStore
import SignetTesting
import SignetWire
import Testing

/// Every way an account is deleted mails "your account was deleted" to the address it had,
/// through the outbox (the row committed with the deletion), read from the real SMTP sink: the
/// account page (in the page's language), `DELETE /account`, the admin API and `signet users
/// delete` (whose server never logs the address).
@Suite(.endToEndLimit, .enabled(if: RealPart.aiosmtpd.canRun, RealPart.aiosmtpd.skipComment))
struct AccountDeletionMailTests {
    static let appRedirect = "com.example.first:/callback"

    /// The account's mail: English unless the deleting request asked for German.
    func expectDeletedMail(_ mail: MailSink.Message.Parsed, to email: String, german: Bool = false,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(mail.to == email, sourceLocation: sourceLocation)
        #expect(mail.subject == (german ? "Ihr Konto bei Example ID wurde gelöscht" : "Your Example ID account was deleted"),
                sourceLocation: sourceLocation)
        #expect(mail.text?.hasPrefix(german ? "Ihr Konto bei Example ID und die darin gespeicherten Daten wurden gelöscht."
                                            : "Your Example ID account and the data it held were deleted.") == true,
                "\(mail.text ?? "")", sourceLocation: sourceLocation)
        #expect(mail.html?.contains("<html lang=\"\(german ? "de" : "en")\">") == true, sourceLocation: sourceLocation)
        #expect(mail.text?.contains("http") == false, sourceLocation: sourceLocation)
    }

    @Test func deletingOnTheAccountPageMailsTheOldAddressInThePagesLanguage() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let browser = FormBrowser(preferences: ["Accept-Language": "de"])
        let start = try await browser.open(accounts.server.url(Routes.account))
        #expect(start.url.path == Routes.signIn)
        let back = try await accounts.app.submitCredentials(browser)
        #expect(back.url.path == Routes.account)
        let deleted = try await browser.submit(formWithAction: Routes.accountDelete, fields: ["password": Interactive.password])
        #expect(deleted.status == 200)
        #expect(try accounts.server.environment.storage.users.user(id: accounts.app.user.id) == nil)
        let mails = try await accounts.sink.waitForMessages(1)
        #expect(mails.count == 1)
        expectDeletedMail(try mails[0].parsed(), to: Interactive.email, german: true)
    }

    @Test func deletingThroughTheAPIMailsTheOldAddress() async throws {
        let accounts = try await Accounts.start()
        defer { Task { await accounts.stop() } }
        let env = accounts.app
        let now = env.server.clock.now
        try env.server.environment.storage.clients.upsertClient(ClientRecord(
            id: "first", name: "First App", isPublic: true, firstParty: true, redirectURIs: [Self.appRedirect],
            allowedScopes: ["openid", Scope.accountDelete], grantTypes: ["authorization_code"],
            tokenEndpointAuthMethod: "none", createdAt: now, updatedAt: now))
        let pkce = PKCEPair.generate()
        let browser = FormBrowser()
        _ = try await browser.open(env.authorizeURL(client: "first", redirectURI: Self.appRedirect, pkce: pkce,
                                                    extra: [("scope", "openid account:delete")]))
        let code = try #require(try await env.submitCredentials(browser).requireRedirect()["code"])
        let access = try #require(try await env.redeem(code: code, pkce: pkce, client: "first", redirectURI: Self.appRedirect)
            .json()["access_token"]?.stringValue)
        // A refused deletion (no scope is missing here, but a wrong token is) mails nothing.
        let refused = try await HTTPTestClient().send(method: "DELETE", url: env.server.url(Routes.account), body: nil,
                                                      headers: ["Authorization": "Bearer \(access)x"])
        #expect(refused.status == 401)
        let deleted = try await HTTPTestClient().send(method: "DELETE", url: env.server.url(Routes.account), body: nil,
                                                      headers: ["Authorization": "Bearer \(access)"])
        #expect(deleted.status == 204)
        let mails = try await accounts.sink.waitForMessages(1)
        #expect(mails.count == 1)
        expectDeletedMail(try mails[0].parsed(), to: Interactive.email)
    }

    @Test func deletingThroughTheAdminAPIMailsTheOldAddress() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let fixture = try AdminFixture { configuration in
            configuration.mail.smtpURL = sink.url
            configuration.mail.from = "id@example.test"
            configuration.branding.productName = "Example ID"
        }
        defer { fixture.stop() }
        let token = try await fixture.token()
        let created = try await fixture.call("POST", "/admin/v1/users", token: token, json: ["email": "dora@example.com"])
        let id = try #require(try created.json()["id"]?.stringValue)
        let deleted = try await fixture.call("DELETE", "/admin/v1/users/\(id)", token: token,
                                             headers: ["If-Match": try #require(created.header("ETag"))])
        #expect(deleted.status == 204, "\(deleted)")
        let mails = try await sink.waitForMessages(1)
        #expect(mails.count == 1)
        expectDeletedMail(try mails[0].parsed(), to: "dora@example.com")
    }

    @Test func signetUsersDeleteMailsTheOldAddressAndNeverLogsIt() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let folder = try TemporaryDirectory(prefix: "delete-mail")
        defer { folder.remove() }
        let data = folder.appending("data")
        let email = "gone.\(RandomToken.make(byteCount: 6).lowercased())@example.test"
        let config = try folder.write("""
            {"mail": {"smtp_url": "\(sink.url)", "from": "id@example.test"}, "branding": {"product_name": "Example ID"},
             "log": {"requests": true}}
            """, to: "signet.json")
        let server = try await TestServer.launchBinary(arguments: ["--config", config], dataDirectory: data)
        let added = try await SignetBinary.run(["users", "add", email, "--no-password", "--config", config, "--data", data])
        #expect(added.succeeded, "\(added)")
        let deleted = try await SignetBinary.run(["users", "delete", email, "--yes", "--config", config, "--data", data])
        #expect(deleted.succeeded, "\(deleted)")
        let mails = try await sink.waitForMessages(1)
        #expect(mails.count == 1)
        expectDeletedMail(try mails[0].parsed(), to: email)
        let stopped = await server.stop()
        let output = stopped.result.stdout + stopped.result.stderr + added.stderr + deleted.stdout + deleted.stderr
        #expect(!output.contains(email), "the output holds the address")
    }
}
