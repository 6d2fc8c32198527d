/// One user-visible string in every page language: English always, German when translated (nil
/// falls back to English, and `PageStrings.untranslated` lists it). `{1}`, `{2}`, … stand for
/// the arguments given when the string is used.
public struct Localized: Sendable, Equatable {
    /// The English text.
    public let en: String
    /// The German text; nil: not translated yet.
    public let de: String?

    /// A string in English and German.
    public init(_ en: String, de: String?) {
        self.en = en
        self.de = de
    }

    /// The text in `language` (English when it has no translation), arguments put in as they are.
    public func text(_ language: PageLanguage, _ arguments: [String] = []) -> String {
        let template: String
        switch language {
        case .en: template = en
        case .de: template = de ?? en
        }
        return Self.fill(template, arguments)
    }

    /// The text in `language` as HTML: the words are escaped, the arguments (already HTML, such as
    /// `<strong>…</strong>` around an escaped name) are put in as they are.
    public func html(_ language: PageLanguage, _ arguments: [String] = []) -> String {
        PageLayout.escape(text(language, arguments.indices.map { "{\($0 + 1)}" })).replacingPlaceholders(arguments)
    }

    static func fill(_ template: String, _ arguments: [String]) -> String {
        arguments.isEmpty ? template : template.replacingPlaceholders(arguments)
    }
}

extension String {
    /// `{1}`, `{2}`, … replaced by the arguments, in one pass (an argument holding `{2}` stays as it is).
    func replacingPlaceholders(_ arguments: [String]) -> String {
        guard !arguments.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let number = Int(after[..<close]), (1...arguments.count).contains(number) {
                out += arguments[number - 1]
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}

/// One feature's page strings: an enum whose cases are its keys, each with its `Localized` text.
/// Adding a page's strings is one such enum in the feature's own file and its line in the server's
/// list of tables (`PageText.tables`), which the translation test reads.
public protocol PageStrings: CaseIterable, Sendable {
    /// The text of this key in every language.
    var localized: Localized { get }
    /// The keys with no German text, as `Table.key`.
    static var untranslated: [String] { get }
}

extension PageStrings {
    /// The keys with no German text, as `Table.key`.
    public static var untranslated: [String] {
        allCases.filter { $0.localized.de == nil }.map { "\(Self.self).\($0)" }
    }
}
