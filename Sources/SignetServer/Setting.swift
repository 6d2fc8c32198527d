/// A documented setting of `signet.json`: its key, the kind of value it takes (with the range or
/// the allowed values), its default, what it means, and the stored property the loader writes.
///
/// Each setting is declared once, in `Settings.swift`. The loader reads and checks it from that
/// declaration and `signet config-reference` prints it from the same one, so neither the loader
/// nor the reference can drift from the code.
public struct Setting<Root, Value: Sendable>: Sendable {
    /// The key inside its section.
    public let key: String
    /// The value used when the key is absent.
    public let defaultValue: Value
    /// How the JSON value is read and checked, and how the reference names its type.
    public let kind: SettingKind<Value>
    /// Whether the key must be given (its default is then never used).
    public let isRequired: Bool
    /// What the setting does.
    public let summary: String
    /// Where the value goes.
    let keyPath: WritableKeyPath<Root, Value> & Sendable

    /// Declares a setting stored at `keyPath`.
    init(_ keyPath: WritableKeyPath<Root, Value> & Sendable, _ key: String, _ defaultValue: Value, _ kind: SettingKind<Value>,
         required: Bool = false, _ summary: String) {
        self.keyPath = keyPath
        self.key = key
        self.defaultValue = defaultValue
        self.kind = kind
        self.isRequired = required
        self.summary = summary
    }

    /// The setting without its value type: what the loader and the reference iterate.
    var entry: SettingEntry<Root> {
        SettingEntry(key: key, type: kind.name + (isRequired ? " (required)" : ""),
                     defaultText: isRequired ? nil : kind.render(defaultValue), summary: summary, isRequired: isRequired,
                     range: kind.range, allowedValues: kind.allowedValues) { section, root in
            let site = ValueSite(reader: section.reader, path: section.path(key))
            root[keyPath: keyPath] = section.values[key].flatMap { kind.read($0, site) } ?? defaultValue
        }
    }
}

/// A setting as the loader and the configuration reference see it, whatever its value type.
public struct SettingEntry<Root>: Sendable {
    /// The key inside its section.
    public let key: String
    /// The type, with its range or allowed values, as the reference shows it.
    public let type: String
    /// The default as JSON text; nil when the setting is required or unset by default.
    public let defaultText: String?
    /// What the setting does.
    public let summary: String
    /// Whether the key must be given.
    public let isRequired: Bool
    /// The whole numbers accepted, for integer settings with a range.
    public let range: ClosedRange<Int>?
    /// The values accepted, for settings that take one of a list.
    public let allowedValues: [String]?
    /// Writes the key's value from `section` into `root`: the default when the key is absent, or
    /// when its value is wrong (which is reported).
    let read: @Sendable (ConfigSection, inout Root) -> Void
}

/// One object of `signet.json` (the top level, `database`, each `clients[]` entry, …): its
/// settings in reference order, read into `Root`.
public struct SettingsGroup<Root>: Sendable {
    /// The key of the object (`database`), `clients[]` for array entries, or nil for the top level.
    public let key: String?
    /// The section title in the reference.
    public let title: String
    /// The settings, in the order the reference lists them.
    public let settings: [SettingEntry<Root>]

    /// Writes every setting from `section` into `root` (defaults for absent keys) and reports
    /// unknown keys; `sections` are the keys of nested objects read elsewhere.
    func read(_ section: ConfigSection, into root: inout Root, sections: [String] = []) {
        readSettings(section, into: &root)
        finish(section, sections: sections)
    }

    /// Writes every setting from `section` into `root`, defaults for absent keys.
    func readSettings(_ section: ConfigSection, into root: inout Root) {
        for setting in settings { setting.read(section, &root) }
    }

    /// Reports every key of `section` that is neither a setting of this group nor one of `sections`.
    func finish(_ section: ConfigSection, sections: [String] = []) {
        section.finish(known: settings.map(\.key), sections: sections)
    }

    /// Reports every required key missing from `section`; true when none is.
    func reportMissing(in section: ConfigSection) -> Bool {
        let missing = settings.filter { $0.isRequired && section.values[$0.key] == nil }
        for setting in missing { section.reader.report(section.path(setting.key), "is required") }
        return missing.isEmpty
    }
}

extension SettingsGroup: Sequence {
    /// The settings, in reference order.
    public func makeIterator() -> IndexingIterator<[SettingEntry<Root>]> { settings.makeIterator() }
}

/// Where a value is being read: its path for error messages and the reader that collects them.
struct ValueSite {
    let reader: ConfigReader
    let path: String

    func report(_ message: String) { reader.report(path, message) }

    /// The string member `key` of an object read here, if `valid` accepts it; otherwise reports
    /// `problem` and returns nil.
    func string(_ key: String, of object: [String: ConfigValue], valid: (String) -> Bool, _ problem: String) -> String? {
        guard case .string(let text)? = object[key], valid(text) else {
            report(problem)
            return nil
        }
        return text
    }
}
