import Foundation
import SignetClientCore
import SignetCore
import SignetCrypto
import SignetMail
import SignetSQLite
import SignetStore
import SignetTesting
import Testing
@testable import SignetServer

/// The outbox and its sender against the real parts: SQLite files, the real server
/// (`TestServer`, `signet serve`) and a real SMTP server (`MailSink`, aiosmtpd). The server's
/// clock is a `ManualClock`, so backoff is passed by moving it, never by sleeping.
@Suite(.endToEndLimit) struct MailOutboxTests {
    static let sender = "signet@example.test"

    static func configureMail(_ url: String) -> (inout SignetConfiguration) -> Void {
        { configuration in
            configuration.mail.smtpURL = url
            configuration.mail.from = sender
            configuration.mail.fromName = "Example ID"
        }
    }

    /// Waits (bounded) until the message `id` satisfies `done`, and returns it.
    static func waitFor(_ id: String, in outbox: any MailOutbox, _ done: @escaping (OutboxMessageRecord) -> Bool) async throws -> OutboxMessageRecord {
        var found: OutboxMessageRecord?
        _ = await Polling.wait(seconds: 30) {
            found = try? outbox.message(id: id)
            return found.map(done) ?? false
        }
        let record = try #require(found, "message \(id) is not in the outbox")
        #expect(done(record), "message \(id) is \(record.state), attempt \(record.attempts)")
        return record
    }

    static func bytes(of folder: String) throws -> [UInt8] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().flatMap { name in
            [UInt8](FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(name)) ?? Data())
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func theMessageIsSealedAndNotReadableInTheDatabaseFiles() throws {
        let folder = try TemporaryDirectory(prefix: "outbox-file")
        defer { folder.remove() }
        let storage = try SQLiteStorage(path: folder.appending("signet.db"))
        let masterKey = try MasterKey(material: SecureRandom.bytes(32))
        let queue = MailQueue(outbox: storage.mailOutbox, masterKey: masterKey, clock: ManualClock(Date()), random: SystemRandomSource())
        let code = "CODE" + RandomToken.make(byteCount: 12)
        let recipient = "reader.\(RandomToken.make(byteCount: 6).lowercased())@example.test"
        let id = try queue.enqueue(to: try MailAddress(recipient), subject: "Your code \(code)", text: "Enter \(code)",
                                   html: "<p>https://id.example.test/verify?code=\(code)</p>")
        let record = try #require(try storage.mailOutbox.message(id: id))
        // The real content round-trips under the right key and id.
        let opened = try queue.open(record)
        #expect(opened == MailQueue.Content(to: recipient, subject: "Your code \(code)", text: "Enter \(code)",
                                            html: "<p>https://id.example.test/verify?code=\(code)</p>"))
        // The database file and its WAL hold the sealed bytes only.
        let files = try Self.bytes(of: folder.path)
        #expect(Self.contains(files, id))
        for secret in [code, recipient, "Your code", "verify?code"] {
            #expect(!Self.contains(files, secret), "\(secret) is readable in the database files")
        }
        // Another master key cannot open it, nor can the row be moved to another id.
        let other = MailQueue(outbox: storage.mailOutbox, masterKey: try MasterKey(material: SecureRandom.bytes(32)),
                              clock: SystemClock(), random: SystemRandomSource())
        #expect(throws: (any Error).self) { try other.open(record) }
        let moved = OutboxMessageRecord(id: "mail_other", sealedMessage: record.sealedMessage, createdAt: record.createdAt)
        #expect(throws: (any Error).self) { try queue.open(moved) }
    }

    @Test func anEnqueuedMessageIsDeliveredAndReadBack() async throws {
        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let server = try TestServer(configure: Self.configureMail(sink.url))
        defer { server.stop() }
        #expect(server.mailSender != nil)
        let id = try server.environment.mail.enqueue(to: try MailAddress("ada@example.test"), subject: "Welcome, Ada",
                                                     text: "Your code is 123456.", html: "<p>Your code is <b>123456</b>.</p>")
        let received = try await sink.waitForMessages(1)
        #expect(received[0].envelopeFrom == Self.sender)
        #expect(received[0].envelopeTo == ["ada@example.test"])
        let parsed = try received[0].parsed()
        #expect(parsed.fromName == "Example ID" && parsed.from == Self.sender && parsed.to == "ada@example.test")
        #expect(parsed.subject == "Welcome, Ada")
        #expect(parsed.text == "Your code is 123456.")
        #expect(parsed.html == "<p>Your code is <b>123456</b>.</p>")
        #expect(parsed.defects.isEmpty)
        let sent = try await Self.waitFor(id, in: server.environment.storage.mailOutbox) { $0.state == .sent }
        #expect(sent.attempts == 1 && sent.finishedAt == server.clock.now)
    }

    @Test func withoutMailConfiguredNoSenderRuns() throws {
        let server = try TestServer()
        defer { server.stop() }
        #expect(server.mailSender == nil)
        #expect(!server.configuration.isMailConfigured)
    }

    @Test func aTransientRefusalIsRetriedWithBackoffThenGivenUpAfterTheWindow() async throws {
        let sink = try await MailSink.start(rejectRecipients: ["busy@example.test": 451])
        defer { Task { await sink.stop() } }
        let server = try TestServer(configure: Self.configureMail(sink.url))
        defer { server.stop() }
        let outbox = server.environment.storage.mailOutbox
        let start = server.clock.now
        let id = try server.environment.mail.enqueue(to: try MailAddress("busy@example.test"), subject: "s", text: "t")
        let first = try await Self.waitFor(id, in: outbox) { $0.attempts == 1 }
        #expect(first.state == .pending)
        // 30 s, up to a quarter less at random.
        let firstDelay = first.nextAttemptAt.timeIntervalSince(start)
        #expect(firstDelay >= 22.5 && firstDelay <= 30, "\(firstDelay)")
        server.clock.advance(by: 30)
        server.environment.mail.notifySender()
        let second = try await Self.waitFor(id, in: outbox) { $0.attempts == 2 }
        #expect(second.state == .pending)
        let secondDelay = second.nextAttemptAt.timeIntervalSince(server.clock.now)
        #expect(secondDelay >= 45 && secondDelay <= 60, "\(secondDelay)")
        // A day later the next failure is the last.
        server.clock.advance(by: 86_400)
        server.environment.mail.notifySender()
        let failed = try await Self.waitFor(id, in: outbox) { $0.state == .failed }
        #expect(failed.attempts == 3)
        #expect(sink.messages().isEmpty)
    }

    @Test func aPermanentRefusalIsFailedAtOnceAndNotRetried() async throws {
        let sink = try await MailSink.start(rejectRecipients: ["gone@example.test": 550])
        defer { Task { await sink.stop() } }
        let server = try TestServer(configure: Self.configureMail(sink.url))
        defer { server.stop() }
        let outbox = server.environment.storage.mailOutbox
        let gone = try server.environment.mail.enqueue(to: try MailAddress("gone@example.test"), subject: "s", text: "t")
        let failed = try await Self.waitFor(gone, in: outbox) { $0.state == .failed }
        #expect(failed.attempts == 1)
        // A later round, proven by the next message's delivery, leaves it alone.
        server.clock.advance(by: 3600)
        let next = try server.environment.mail.enqueue(to: try MailAddress("ada@example.test"), subject: "s", text: "t")
        _ = try await sink.waitForMessages(1)
        _ = try await Self.waitFor(next, in: outbox) { $0.state == .sent }
        #expect(try outbox.message(id: gone) == failed)
        #expect(sink.messages().map(\.envelopeTo) == [["ada@example.test"]])
    }

    /// The SMTP server is down: the message waits in the outbox, survives a restart of Signet, and
    /// is delivered once a server is there.
    @Test func mailWaitsWhileTheServerIsDownAndSurvivesARestart() async throws {
        let folder = try TemporaryDirectory(prefix: "outbox-restart")
        defer { folder.remove() }
        let data = folder.appending("data")
        let closedPort = try FreePort.pick()
        let down = try TestServer(configure: { configuration in
            Self.configureMail("smtp://127.0.0.1:\(closedPort)")(&configuration)
            configuration.dataDirectory = data
        })
        let id = try down.environment.mail.enqueue(to: try MailAddress("ada@example.test"), subject: "Survivor", text: "still here")
        let waiting = try await Self.waitFor(id, in: down.environment.storage.mailOutbox) { $0.attempts == 1 }
        #expect(waiting.state == .pending)
        down.stop()

        let sink = try await MailSink.start()
        defer { Task { await sink.stop() } }
        let later = ManualClock(down.clock.now.addingTimeInterval(3600))
        let up = try TestServer(clock: later, configure: { configuration in
            Self.configureMail(sink.url)(&configuration)
            configuration.dataDirectory = data
        })
        defer { up.stop() }
        let received = try await sink.waitForMessages(1)
        #expect(try received[0].parsed().subject == "Survivor")
        let sent = try await Self.waitFor(id, in: up.environment.storage.mailOutbox) { $0.state == .sent }
        #expect(sent.attempts == 2)
    }

    /// `signet mail test` against the real `signet serve`: delivered, a 550 marked failed, and the
    /// server's whole output holds none of either message (address, subject, body).
    @Test func signetMailTestIsDeliveredAndNothingOfTheMessageIsLogged() async throws {
        let sink = try await MailSink.start(rejectRecipients: ["gone@example.test": 550])
        defer { Task { await sink.stop() } }
        let folder = try TemporaryDirectory(prefix: "mail-cli")
        defer { folder.remove() }
        let data = folder.appending("data")
        let recipient = "ops.\(RandomToken.make(byteCount: 6).lowercased())@example.test"
        let config = try folder.write("""
            {"mail": {"smtp_url": "\(sink.url)", "from": "\(Self.sender)"}, "log": {"requests": true}}
            """, to: "signet.json")
        let server = try await TestServer.launchBinary(arguments: ["--config", config], dataDirectory: data)
        let enqueued = try await SignetBinary.run(["mail", "test", "--to", recipient, "--config", config, "--data", data])
        #expect(enqueued.succeeded, "\(enqueued)")
        let id = enqueued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.hasPrefix("mail_") && id.count == 27, "\(id)")
        let received = try await sink.waitForMessages(1)
        let parsed = try received[0].parsed()
        #expect(parsed.to == recipient && parsed.subject == "Signet test message" && parsed.fromName == "Signet")

        let refused = try await SignetBinary.run(["mail", "test", "--to", "gone@example.test", "--config", config, "--data", data])
        let refusedID = refused.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let store = try SQLiteStorage(path: (data as NSString).appendingPathComponent("signet.db"), migrate: false)
        let failed = try await Self.waitFor(refusedID, in: store.mailOutbox) { $0.state == .failed }
        #expect(failed.attempts == 1)
        #expect(try store.mailOutbox.message(id: id)?.state == .sent)

        let stopped = await server.stop()
        let output = stopped.result.stdout + stopped.result.stderr
        #expect(output.contains("mail \(refusedID): failed for good after 1 attempt(s), refused:"), "\(output)")
        #expect(output.contains("550"))
        for secret in [recipient, "gone@example.test", "Signet test message", "It arrived, so mail works"] {
            #expect(!output.contains(secret), "the server's output holds \(secret)")
        }
    }

    @Test func signetMailTestNeedsMailConfiguredAndAnAddress() async throws {
        let folder = try TemporaryDirectory(prefix: "mail-cli-bad")
        defer { folder.remove() }
        let data = folder.appending("data")
        let unconfigured = try await SignetBinary.run(["mail", "test", "--to", "ada@example.test", "--data", data])
        #expect(unconfigured.status == 78)
        #expect(unconfigured.stderr.contains("mail.smtp_url: is not set"), "\(unconfigured)")
        let config = try folder.write(#"{"mail": {"smtp_url": "smtp://127.0.0.1:1", "from": "a@example.test"}}"#, to: "signet.json")
        let badAddress = try await SignetBinary.run(["mail", "test", "--to", "not an address", "--config", config, "--data", data])
        #expect(badAddress.status == 64)
        #expect(badAddress.stderr.contains("--to: not an address SMTP can carry"), "\(badAddress)")
        let noTo = try await SignetBinary.run(["mail", "test", "--config", config, "--data", data])
        #expect(noTo.status == 64 && noTo.stderr.contains("--to ADDRESS is required"))
        // Nothing was enqueued by the refused calls.
        let store = try SQLiteStorage(path: (data as NSString).appendingPathComponent("signet.db"))
        #expect(try store.mailOutbox.claimDue(now: Date().addingTimeInterval(86_400), leaseUntil: Date(), limit: 10).isEmpty)
    }

    /// A mail password that cannot be read stops `signet serve` before it listens (exit 78, the
    /// setting named), rather than a server that cannot send.
    @Test func serveRefusesToStartWhenTheMailPasswordCannotBeRead() async throws {
        let folder = try TemporaryDirectory(prefix: "mail-serve-bad")
        defer { folder.remove() }
        let config = try folder.write(
            #"{"mail": {"smtp_url": "smtp://127.0.0.1:1", "from": "a@example.test", "username": "u", "password": "env:SIGNET_TEST_UNSET_SMTP_PW"}}"#,
            to: "signet.json")
        let result = try await SignetBinary.run(["serve", "--config", config, "--data", folder.appending("data"), "--listen", "127.0.0.1:0"],
                                                timeoutSeconds: 30)
        #expect(result.status == 78, "\(result)")
        #expect(result.stderr.contains("mail.password: environment variable SIGNET_TEST_UNSET_SMTP_PW is not set"), "\(result)")
        #expect(!result.stdout.contains("listening on"))
    }

    @Test func theMailSettingsAreChecked() throws {
        func issues(_ json: String) -> [String] {
            do { _ = try SignetConfiguration(parsing: Data(json.utf8)); return [] } catch { return error.issues.map(\.description) }
        }
        #expect(issues(#"{"mail": {"smtp_url": "smtp://user:pw@mail.example.com", "from": "a@example.com"}}"#)
            == ["mail.smtp_url: the mail URL may not hold a user name or password (use mail.username and mail.password)"])
        #expect(issues(#"{"mail": {"smtp_url": "http://mail.example.com", "from": "a@example.com"}}"#)
            == ["mail.smtp_url: the mail URL must start with smtp:// or smtps://"])
        #expect(issues(#"{"mail": {"smtp_url": "smtp://mail.example.com"}}"#)
            == ["mail.from: is required with mail.smtp_url: the sender address of every message"])
        #expect(issues(#"{"mail": {"smtp_url": "smtp://mail.example.com", "from": "no at sign"}}"#)
            == ["mail.from: not an address SMTP can carry (printable ASCII, one @)"])
        #expect(issues(#"{"mail": {"smtp_url": "smtp://mail.example.com", "from": "a@example.com", "username": "u"}}"#)
            == ["mail.username: mail.username and mail.password go together"])
        #expect(issues(#"{"mail": {"smtp_url": "smtp://mail.example.com", "from": "a@example.com", "timeout": 0}}"#).count == 1)
        let good = try SignetConfiguration(parsing: Data(#"""
            {"mail": {"smtp_url": "smtps://mail.example.com", "from": "a@example.com", "username": "u", "password": "env:SMTP_PW",
                      "ca_file": "ca.pem", "timeout": 12}, "data_dir": "/srv/signet"}
            """#.utf8))
        #expect(good.isMailConfigured)
        let delivery = try #require(try good.mailDelivery(environment: ["SMTP_PW": "hunter2-secret"]))
        #expect(delivery.from.address == "a@example.com" && delivery.fromName == "Signet")
        #expect(delivery.transport.endpoint == (try SMTPEndpoint("smtps://mail.example.com")))
        #expect(delivery.lease == 84)
        #expect(throws: ConfigurationIssue.self) { try good.mailDelivery(environment: [:]) }
        #expect(!SignetConfiguration.defaults.isMailConfigured)
        #expect(try SignetConfiguration.defaults.mailDelivery() == nil)
    }

    @Test func theBackoffDoublesFromThirtySecondsToAnHourWithJitterWithinTheWindow() {
        let retry = MailRetry.standard
        #expect((1...9).map { retry.delay(afterAttempt: $0, unit: 0) } == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(retry.delay(afterAttempt: 1, unit: 0.999_999) > 22.5 && retry.delay(afterAttempt: 1, unit: 1) == 22.5)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(retry.nextAttempt(afterAttempt: 1, now: start, enqueuedAt: start, unit: 0) == start.addingTimeInterval(30))
        #expect(retry.nextAttempt(afterAttempt: 30, now: start.addingTimeInterval(82_800), enqueuedAt: start, unit: 0) == start.addingTimeInterval(86_400))
        #expect(retry.nextAttempt(afterAttempt: 30, now: start.addingTimeInterval(82_801), enqueuedAt: start, unit: 0) == nil)
    }
}
