/// A documented setting of `signet.json`: its key, its default and what it means.
///
/// Defaults are written once, here; the reader uses them and `signet config-reference`
/// prints them, so the configuration reference cannot drift from the code.
public struct Setting<Value: Sendable>: Sendable {
    /// The key inside its section.
    public let key: String
    /// The value used when the key is absent.
    public let defaultValue: Value
    /// A short type description for the reference.
    public let type: String
    /// What the setting does.
    public let summary: String

    /// Declares a setting.
    public init(_ key: String, _ defaultValue: Value, type: String, _ summary: String) {
        self.key = key
        self.defaultValue = defaultValue
        self.type = type
        self.summary = summary
    }

    /// The setting without its value type, for the reference.
    var entry: SettingEntry {
        SettingEntry(key: key, type: type, defaultText: SettingEntry.render(defaultValue), summary: summary)
    }
}

/// A setting as listed in the configuration reference.
public struct SettingEntry: Sendable {
    /// The key inside its section.
    public let key: String
    /// The type description.
    public let type: String
    /// The default, as JSON text (or "none").
    public let defaultText: String
    /// What the setting does.
    public let summary: String

    static func render(_ value: Any) -> String {
        switch value {
        case let text as String: return "\"\(text)\""
        case let list as [String]: return "[" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case let optional as String?: return optional.map { "\"\($0)\"" } ?? "none"
        case let optional as Int?: return optional.map(String.init) ?? "none"
        case let optional as [String]?: return optional.map { "[" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } ?? "none"
        default: return "\(value)"
        }
    }
}
