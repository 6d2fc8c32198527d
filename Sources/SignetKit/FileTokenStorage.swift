import Foundation
#if canImport(Glibc)
import Glibc   // on Apple platforms Foundation brings Darwin
#endif

/// Token storage in plain files readable only by the user (mode 0600, folder 0700), for machines
/// without a keyring. NOT protected by a keyring: anyone who can read the user's files (a backup,
/// another process of the same user) can read the refresh token. Apps must only use it when the
/// user opts in (`signet login --insecure-file-storage`) and should say so, as widely used CLIs do.
public final class FileTokenStorage: TokenStorage {
    /// The folder holding one file per key.
    public let directory: URL

    /// The warning an app should print when it uses file storage.
    public static let warning = "warning: tokens are stored in a file protected only by its permissions (0600), not by a keyring"

    /// Stores files in `directory` (created 0700 when missing).
    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_CONFIG_HOME/signet/<name>`, else `~/.config/signet/<name>`.
    public static func defaultDirectory(name: String = "tokens", environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("signet", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    /// The folder: two storages on one folder share their sessions.
    public var storageIdentity: String? { "file:" + directory.standardizedFileURL.path }

    /// The bytes under `key`, or nil when there is no file.
    public func read(_ key: String) throws(TokenStorageError) -> [UInt8]? {
        let path = try file(for: key).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenStorageError("cannot read \(path)") }
        return Array(data)
    }

    /// Writes `value` to a new 0600 file and renames it over the old one (atomic).
    public func write(_ key: String, _ value: [UInt8]) throws(TokenStorageError) {
        try makeDirectory()
        let target = try file(for: key).path
        let temporary = target + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TokenStorageError("cannot create \(temporary): errno \(errno)") }
        let ok = writeAll(fd, value)
        let synced = fsync(fd) == 0
        close(fd)
        guard ok, synced, rename(temporary, target) == 0 else {
            unlink(temporary)
            throw TokenStorageError("cannot write \(target)")
        }
    }

    /// Deletes the file for `key`.
    public func remove(_ key: String) throws(TokenStorageError) {
        let path = try file(for: key).path
        if unlink(path) != 0 && errno != ENOENT { throw TokenStorageError("cannot remove \(path): errno \(errno)") }
    }

    /// Keys become file names: only `A–Z a–z 0–9 - _ .`, everything else hex-escaped.
    private func file(for key: String) throws(TokenStorageError) -> URL {
        guard !key.isEmpty else { throw TokenStorageError("empty key") }
        var name = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += "." + String(byte, radix: 16)
            }
        }
        return directory.appendingPathComponent(name + ".json")
    }

    private func makeDirectory() throws(TokenStorageError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw TokenStorageError("cannot create \(directory.path)")
        }
        chmod(directory.path, 0o700)
    }
}

/// Writes every byte of `bytes` to `fd`; false on an error. At file scope so `write` is the C call.
private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { buffer in write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
    }
    return true
}
