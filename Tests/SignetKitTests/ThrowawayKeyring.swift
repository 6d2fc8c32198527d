import Foundation
import SignetTesting
#if canImport(Glibc)
import Glibc
#endif

/// A private D-Bus session bus with a gnome-keyring daemon (Secret Service only) on it, unlocked
/// with a test password, its files in a temporary folder. Stopping the bus ends the daemon too.
struct ThrowawayKeyring: @unchecked Sendable {   // TemporaryDirectory: only its path is read
    /// The bus address, for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    let bus: BackgroundProcess
    let daemon: BackgroundProcess?
    let home: TemporaryDirectory

    /// The variables a child needs to use this keyring (and nothing of the user's own session).
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": home.path, "XDG_DATA_HOME": home.appending("data"),
         "XDG_RUNTIME_DIR": home.appending("run"), "XDG_CONFIG_HOME": home.appending("config"), "DISPLAY": ""]
    }

    /// Starts the bus (`dbus-daemon --nofork` on a socket in the temporary folder) and the keyring
    /// (`gnome-keyring-daemon --foreground --unlock`, which reads the password from stdin and
    /// creates the login keyring), then waits until the keyring owns `org.freedesktop.secrets`.
    /// Both stay children of this process, so stopping them is a kill and a wait.
    static func start() async throws -> ThrowawayKeyring {
        try RealPart.keyring.use()
        let home = try TemporaryDirectory(prefix: "keyring")
        for folder in ["data", "run", "config"] {
            try FileManager.default.createDirectory(atPath: home.appending(folder), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let address = "unix:path=" + home.appending("bus")
        let bus: BackgroundProcess
        do {
            bus = try BackgroundProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"])
        } catch {
            home.remove()
            throw error
        }
        let busOnly = ThrowawayKeyring(address: address, bus: bus, daemon: nil, home: home)
        do {
            try await busOnly.waitFor("bus socket") { FileManager.default.fileExists(atPath: home.appending("bus")) }
            let daemon = try BackgroundProcess("/usr/bin/gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"],
                                               environment: busOnly.environment, stdin: Array("throwaway-test-password".utf8))
            let keyring = ThrowawayKeyring(address: address, bus: bus, daemon: daemon, home: home)
            do {
                try await keyring.waitFor("gnome-keyring on the bus") { await keyring.secretServiceIsOnTheBus() }
            } catch {
                daemon.kill()
                throw error
            }
            return keyring
        } catch {
            busOnly.stop()
            throw error
        }
    }

    /// Whether `org.freedesktop.secrets` has an owner (asked with dbus-send, which never activates it).
    func secretServiceIsOnTheBus() async -> Bool {
        let reply = try? await Subprocess.run("/usr/bin/dbus-send", [
            "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"], timeoutSeconds: 10)
        return reply?.stdout.contains("boolean true") == true
    }

    /// Polls `condition` for up to 20 s.
    func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        for _ in 0..<200 {
            if await condition() { return }
            guard bus.isRunning else { throw TestingError("dbus-daemon ended early") }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw TestingError("timed out waiting for the \(what)")
    }

    /// Ends the keyring and the bus (SIGKILL: gnome-keyring-daemon keeps running after SIGTERM
    /// in the foreground), waits for both, and removes the folder.
    func stop() {
        daemon?.kill()
        bus.kill()
        home.remove()
    }
}
