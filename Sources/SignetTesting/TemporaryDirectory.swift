import Foundation
import Synchronization

/// A fresh, uniquely named directory under the system temporary folder, removed by `remove()`
/// (or when the object goes away). Safe for tests that run in parallel.
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String
    private let removed = Mutex(false)

    /// Creates `$TMPDIR/signet-<prefix>-<uuid>` with mode 0700.
    public init(prefix: String = "test") throws {
        let base = FileManager.default.temporaryDirectory.path
        path = (base as NSString).appendingPathComponent("signet-\(prefix)-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// `path/component`.
    public func appending(_ component: String) -> String {
        (path as NSString).appendingPathComponent(component)
    }

    /// Writes `text` to `path/name` and returns the file's path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        let file = appending(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Deletes the directory and everything in it; later calls do nothing.
    public func remove() {
        let first = removed.withLock { done in
            defer { done = true }
            return !done
        }
        if first { try? FileManager.default.removeItem(atPath: path) }
    }

    deinit { remove() }
}
