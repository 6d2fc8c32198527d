import Foundation

/// Where a secret comes from: `env:NAME` or `file:PATH`. Secrets are never written inline.
public enum SecretReference: Sendable, Equatable, CustomStringConvertible {
    /// An environment variable.
    case environment(String)
    /// A file; relative paths are resolved against the data folder.
    case file(String)

    /// Parses `env:NAME` or `file:PATH`.
    public init(parsing text: String) throws(ConfigurationIssue) {
        if text.hasPrefix("env:"), text.count > 4 {
            let name = String(text.dropFirst(4))
            guard name.utf8.allSatisfy({ $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw ConfigurationIssue(path: "", message: "environment variable names may use only letters, digits and '_'")
            }
            self = .environment(name)
        } else if text.hasPrefix("file:"), text.count > 5 {
            self = .file(String(text.dropFirst(5)))
        } else {
            throw ConfigurationIssue(path: "", message: "a secret must be a reference, \"env:NAME\" or \"file:PATH\", never the secret itself")
        }
    }

    /// The reference as written (it names where the secret is, not the secret).
    public var description: String {
        switch self {
        case .environment(let name): "env:\(name)"
        case .file(let path): "file:\(path)"
        }
    }

    /// Reads the secret's bytes. File contents lose one trailing newline.
    public func resolve(relativeTo directory: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationIssue) -> [UInt8] {
        switch self {
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw ConfigurationIssue(path: "", message: "environment variable \(name) is not set")
            }
            return Array(value.utf8)
        case .file:
            let path = resolvedPath(relativeTo: directory) ?? ""
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationIssue(path: "", message: "cannot read secret file \(path)")
            }
            var bytes = [UInt8](data)
            if bytes.last == 0x0A { bytes.removeLast() }
            if bytes.last == 0x0D { bytes.removeLast() }
            return bytes
        }
    }

    /// For `file:` references, the path with relative paths resolved against `directory`.
    public func resolvedPath(relativeTo directory: String) -> String? {
        guard case .file(let path) = self else { return nil }
        return path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
    }
}
