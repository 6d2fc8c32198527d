import Foundation

/// Where the package and its build products are, for tests that run the real `signet` binary or
/// the Python interop tools.
public enum PackagePaths {
    /// The package root (the folder holding Package.swift), found from this source file's path.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // SignetTesting
            .deletingLastPathComponent()   // Sources
            .deletingLastPathComponent()
    }

    /// The `signet` executable: `$SIGNET_BINARY` if set, else the one built next to the running
    /// test bundle (same configuration), else `.build/debug/signet` under the package root.
    public static func signetBinary() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SIGNET_BINARY"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw TestingError("SIGNET_BINARY=\(path) is not an executable file")
            }
            return path
        }
        var candidates: [String] = []
        if let executable = Bundle.main.executableURL {
            // swift test runs `.build/<triple>/debug/SignetPackageTests.xctest`; `signet` sits beside it.
            var directory = executable.deletingLastPathComponent()
            for _ in 0..<3 {
                candidates.append(directory.appendingPathComponent("signet").path)
                directory = directory.deletingLastPathComponent()
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/signet").path)
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        throw TestingError("the signet binary was not found (looked at \(candidates.joined(separator: ", "))); "
            + "run `swift build` (or `swift build --build-tests`) first, or set SIGNET_BINARY")
    }

    /// The Python interpreter for interop tests: `$SIGNET_PYTHON` if set, else
    /// `.build/pytools/bin/python` under the package root if present (`make pydeps` creates it),
    /// else `python3` from PATH.
    public static var python: String {
        if let path = ProcessInfo.processInfo.environment["SIGNET_PYTHON"], !path.isEmpty { return path }
        let venv = packageRoot.appendingPathComponent(".build/pytools/bin/python").path
        if FileManager.default.isExecutableFile(atPath: venv) { return venv }
        return "python3"
    }
}
