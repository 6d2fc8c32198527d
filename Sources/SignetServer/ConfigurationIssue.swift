import SignetMacros

/// One mistake in a configuration file: where it is and what is wrong.
@MemberwiseInit
public struct ConfigurationIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the setting, such as `lifetimes.access_token` or `clients[0].redirect_uris[1]`.
    public var path: String
    /// What is wrong, and where possible how to fix it.
    public var message: String

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every mistake found in a configuration file.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The mistakes, in file order where possible.
    public var issues: [ConfigurationIssue]
    /// One line per issue.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
