import Foundation

/// Opens URLs in the user's browser, outside the app (RFC 8252 §8.12: never an embedded web view).
///
/// Order: an explicit command; else `$BROWSER` (a `:`-separated list of commands, `%s` standing for
/// the URL, as in the freedesktop convention); else `xdg-open` when a display is present (Linux)
/// or `open` (macOS). When none of them starts, `open(_:)` returns `.notOpened` and the app should
/// print the URL for the user to open by hand.
public struct ExternalBrowser: Sendable {
    /// What happened when opening.
    public enum Outcome: Sendable, Equatable {
        /// The command was started (its name, without the URL).
        case launched(String)
        /// No browser could be started; show the URL to the user.
        case notOpened
    }

    /// A command that replaces every other choice (`signet login --browser-command`).
    public let command: String?
    let environment: [String: String]

    /// A browser opener; `command` overrides `$BROWSER` and `xdg-open`.
    public init(command: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.command = command
        self.environment = environment
    }

    /// The commands that will be tried, in order, each an argument vector (the URL not yet in it).
    public var candidates: [[String]] {
        if let command, !command.isEmpty { return [Self.words(command)] }
        if let browser = environment["BROWSER"], !browser.isEmpty {
            return browser.split(separator: ":").map { Self.words(String($0)) }.filter { !$0.isEmpty }
        }
        #if os(macOS)
        return [["/usr/bin/open"]]
        #else
        let hasDisplay = environment["DISPLAY"].map { !$0.isEmpty } ?? false
            || environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        return hasDisplay ? [["xdg-open"]] : []
        #endif
    }

    /// Starts the first candidate that can be started, detached (it is not waited for).
    @discardableResult
    public func open(_ url: URL) -> Outcome {
        for candidate in candidates {
            guard let program = candidate.first else { continue }
            var arguments = Array(candidate.dropFirst())
            if arguments.contains(where: { $0.contains("%s") }) {
                arguments = arguments.map { $0.replacingOccurrences(of: "%s", with: url.absoluteString) }
            } else {
                arguments.append(url.absoluteString)
            }
            guard let executable = Self.resolve(program, path: environment["PATH"] ?? "/usr/bin:/bin") else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
                return .launched(program)
            } catch {
                continue
            }
        }
        return .notOpened
    }

    /// Splits a command line on spaces (no quoting: commands with spaces in paths belong in a script).
    static func words(_ text: String) -> [String] {
        text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    /// An absolute path for `program`, looked up on `path` when it has no `/`.
    static func resolve(_ program: String, path: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
