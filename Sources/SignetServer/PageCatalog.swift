import SignetWire

/// The server's page strings, one catalog per language (`PageCatalog+English.swift`,
/// `PageCatalog+German.swift`), keyed `Table.key`: the tables (`XText` enums) name the keys, the
/// catalogs hold the words, so a translator works in one file per language and a new language is
/// one more catalog. English is the source: its comments say what each `{1}`, `{2}` stands for.
enum PageCatalog {
    /// The text of `key` in every language; a key missing from the English catalog shows as
    /// itself (PageTextTests fails on it), a key missing from the German one falls back to English.
    static func localized(_ key: String) -> Localized {
        Localized(english[key] ?? key, de: german[key])
    }

    /// Catalog keys that no table declares (left behind by a removed case).
    static func orphans(declared: Set<String>) -> [String] {
        (Set(english.keys).union(german.keys)).subtracting(declared).sorted()
    }
}

/// A table of page strings whose words are in the catalogs: an enum whose cases are its keys.
protocol CatalogStrings: PageStrings, RawRepresentable where RawValue == String {}

extension CatalogStrings {
    /// The catalogs' text for `Table.key`.
    var localized: Localized { PageCatalog.localized(Self.catalogKey(rawValue)) }

    /// The catalog key of one of this table's keys.
    static func catalogKey(_ key: String) -> String { "\(Self.self).\(key)" }

    /// Whether the English catalog has every key of this table.
    static var missingEnglish: [String] {
        allCases.map { catalogKey($0.rawValue) }.filter { PageCatalog.english[$0] == nil }
    }
}
