import SignetClientCore

/// The kind of value a setting takes: how its JSON is read and checked (type, range, allowed
/// values), how the reference names it, and how its default is printed.
public struct SettingKind<Value: Sendable>: Sendable {
    /// The type as the reference shows it, with the range or the allowed values.
    public let name: String
    /// The whole numbers accepted, for integer kinds with a range.
    public var range: ClosedRange<Int>? = nil
    /// The values accepted, for enum kinds.
    public var allowedValues: [String]? = nil
    /// The value, or nil after reporting why the JSON is not one.
    let read: @Sendable (ConfigValue, ValueSite) -> Value?
    /// The value as JSON text for the reference; nil for "not set".
    let render: @Sendable (Value) -> String?
}

extension SettingKind {
    /// A kind whose JSON is one case of `ConfigValue`: `extract` takes the value out of it, and
    /// anything else is reported as "must be `expected`, not …".
    private static func plain(_ name: String, expected: String, extract: @escaping @Sendable (ConfigValue) -> Value?,
                              render: @escaping @Sendable (Value) -> String?) -> SettingKind {
        SettingKind(name: name, read: { value, site in
            guard let plain = extract(value) else {
                site.report("must be \(expected), not \(value.typeName)")
                return nil
            }
            return plain
        }, render: render)
    }
}

extension SettingKind where Value == String {
    /// A string; `name` says what it holds (`URL`, `path`, …) and `problem` checks it (nil: fine).
    static func string(_ name: String = "string", problem: (@Sendable (String) -> String?)? = nil) -> SettingKind {
        let text = plain(name, expected: "a string", extract: { if case .string(let text) = $0 { text } else { nil } },
                         render: { "\"\($0)\"" })
        guard let problem else { return text }
        return SettingKind(name: name, read: { value, site in
            guard let string = text.read(value, site) else { return nil }
            if let message = problem(string) {
                site.report(message)
                return nil
            }
            return string
        }, render: text.render)
    }
}

extension SettingKind where Value == Bool {
    /// `true` or `false`.
    static var boolean: SettingKind {
        plain("boolean", expected: "true or false", extract: { if case .bool(let flag) = $0 { flag } else { nil } }, render: { "\($0)" })
    }
}

extension SettingKind where Value == Int {
    /// A whole number, within `range` when one is given.
    static func integer(_ range: ClosedRange<Int>? = nil, _ name: String = "integer") -> SettingKind {
        SettingKind(name: name + (range.map { ", \($0.lowerBound) to \($0.upperBound)" } ?? ""), range: range, read: { value, site in
            guard case .number(let number) = value, number.rounded() == number, let integer = Int(exactly: number) else {
                site.report("must be a whole number, not \(value.typeName == "a number" ? "a fraction" : value.typeName)")
                return nil
            }
            if let range, !range.contains(integer) {
                site.report("must be between \(range.lowerBound) and \(range.upperBound), not \(integer)")
                return nil
            }
            return integer
        }, render: { "\($0)" })
    }

    /// A duration in whole seconds, within `range` when one is given.
    static func seconds(_ range: ClosedRange<Int>? = nil) -> SettingKind { integer(range, "seconds") }
}

extension SettingKind {
    /// An array of `items` (`strings`, `objects`), each read by `item` at `key[index]`, which
    /// reports there and returns nil for an item it refuses; the reference prints each item with
    /// `render`, in brackets.
    static func array<Item: Sendable>(_ name: String, of items: String, render: @escaping @Sendable (Item) -> String,
                                      _ item: @escaping @Sendable (ConfigValue, ValueSite) -> Item?) -> SettingKind
    where Value == [Item] {
        SettingKind(name: name, read: { value, site in
            guard case .array(let entries) = value else {
                site.report("must be an array of \(items), not \(value.typeName)")
                return nil
            }
            var result: [Item] = []
            for (index, entry) in entries.enumerated() {
                if let read = item(entry, ValueSite(reader: site.reader, path: "\(site.path)[\(index)]")) { result.append(read) }
            }
            return result
        }, render: { "[" + $0.map(render).joined(separator: ", ") + "]" })
    }
}

extension SettingKind where Value == [String] {
    /// An array of strings; `problem` checks each item (nil: fine) and is reported at `key[index]`.
    static func strings(_ name: String = "array of string", problem: (@Sendable (String) -> String?)? = nil) -> SettingKind {
        array(name, of: "strings", render: { "\"\($0)\"" }) { item, site in
            guard case .string(let text) = item else {
                site.report("must be a string, not \(item.typeName)")
                return nil
            }
            if let problem, let message = problem(text) { site.report(message) }
            return text
        }
    }
}

extension SettingKind where Value == String? {
    /// An optional URL: https, or http on a loopback address (`ProviderURLRule`).
    static var optionalURL: SettingKind { .optional(.string("URL", problem: { ProviderURLRule.problem($0) })) }
}

extension SettingKind where Value == SecretReference {
    /// `"env:NAME"` or `"file:PATH"`: where a secret is, never the secret.
    static var secret: SettingKind {
        SettingKind(name: "secret reference", read: { value, site in
            guard let text = SettingKind<String>.string().read(value, site) else { return nil }
            do throws(ConfigurationIssue) { return try SecretReference(parsing: text) } catch {
                site.report(error.message)
                return nil
            }
        }, render: { "\"\($0)\"" })
    }
}

extension SettingKind where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the enum's raw values, parsed once here: `"sqlite" | "postgres"`.
    static var oneOf: SettingKind {
        let allowed = Value.allCases.map(\.rawValue)
        return SettingKind(name: allowed.map { "\"\($0)\"" }.joined(separator: " | "), allowedValues: allowed, read: { value, site in
            guard let text = SettingKind<String>.string().read(value, site) else { return nil }
            guard let choice = Value(rawValue: text) else {
                site.report("must be one of \(allowed.joined(separator: ", ")), not \"\(text)\"")
                return nil
            }
            return choice
        }, render: { "\"\($0.rawValue)\"" })
    }
}

extension SettingKind {
    /// `kind`, for a setting that may be left unset (nil).
    static func optional<Wrapped>(_ kind: SettingKind<Wrapped>) -> SettingKind where Value == Wrapped? {
        SettingKind(name: kind.name, range: kind.range, allowedValues: kind.allowedValues,
                    read: { value, site in kind.read(value, site).map { .some($0) } },
                    render: { $0.flatMap(kind.render) })
    }
}
