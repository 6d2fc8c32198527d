import Foundation
import SignetKit
import SignetKitSecretService
import SignetTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `SecretServiceTokenStorage` against a real gnome-keyring daemon in a throwaway D-Bus session.
///
/// libsecret connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` once per process
/// and keeps that connection, so one test owns the in-process keyring; it sets the variable
/// before libsecret's first use. `signet login` with the keyring runs in its own processes
/// (BrowserLoginTests).
@Suite("Secret Service token storage", .endToEndLimit) struct SecretServiceStorageTests {
    @Test func withoutASessionBusThereIsNoKeyring() {
        #expect(SecretServiceTokenStorage.available(environment: [:]) == nil)
        #expect(SecretServiceTokenStorage.available(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]) == nil)
    }

    @Test(.enabled(if: RealPart.keyring.canRun, RealPart.keyring.skipComment))
    func roundTripInARealGnomeKeyring() async throws {
        let keyring = try await ThrowawayKeyring.start()
        defer { keyring.stop() }
        setenv("DBUS_SESSION_BUS_ADDRESS", keyring.address, 1)

        let storage = try #require(SecretServiceTokenStorage.available(service: "signet-test",
                                                                        environment: ["DBUS_SESSION_BUS_ADDRESS": keyring.address]))
        #expect(try storage.read("signet-abc-tokens") == nil)

        let tokens = Array(#"{"access_token":"at","refresh_token":"rt"}"#.utf8)
        try storage.write("signet-abc-tokens", tokens)
        #expect(try storage.read("signet-abc-tokens") == tokens)

        // Replacing keeps one item; any bytes survive (values travel as base64 text).
        let binary: [UInt8] = [0, 255, 10, 0xC3, 0x28, 34]
        try storage.write("signet-abc-tokens", binary)
        #expect(try storage.read("signet-abc-tokens") == binary)

        // A new instance (a relaunch) reads what the first stored; another service does not.
        #expect(try SecretServiceTokenStorage(service: "signet-test").read("signet-abc-tokens") == binary)
        #expect(try SecretServiceTokenStorage(service: "another-app").read("signet-abc-tokens") == nil)
        try storage.write("signet-abc-pending", Array("pending".utf8))
        #expect(try storage.read("signet-abc-pending") == Array("pending".utf8))

        // The item is in the keyring daemon, not in this process: the daemon's files changed.
        let keyrings = try FileManager.default.contentsOfDirectory(atPath: keyring.home.appending("data/keyrings"))
        #expect(keyrings.contains("login.keyring"))

        try storage.remove("signet-abc-tokens")
        #expect(try storage.read("signet-abc-tokens") == nil)
        #expect(try storage.read("signet-abc-pending") == Array("pending".utf8), "removing one key leaves the others")
        try storage.remove("signet-abc-tokens")   // absent: no error
        try storage.remove("signet-abc-pending")
        #expect(try storage.read("signet-abc-pending") == nil)
    }
}
