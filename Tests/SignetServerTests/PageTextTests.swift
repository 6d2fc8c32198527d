import Foundation
import SignetCore
@testable import SignetServer
import SignetTesting
import SignetWire
import Testing

/// Every page string has its German text, and every table of page strings is in `PageText.tables`.
@Suite(.endToEndLimit) struct PageTextTests {
    /// The keys without German text (they fall back to English): this list must stay empty.
    /// Every reason SignetCore gives for refusing a typed address or password has its page string,
    /// so no refusal falls back to SignetCore's English sentence.
    @Test func everyValidationReasonHasItsPageString() {
        let missing = UserServiceError.Reason.allCases.filter { ValidationText(rawValue: $0.rawValue) == nil }
        #expect(missing == [], "no ValidationText for \(missing)")
    }

    @Test func everyPageStringHasItsGermanText() {
        #expect(PageText.untranslated == [], "missing German: \(PageText.untranslated.joined(separator: ", "))")
    }

    /// A table that is not listed would escape the test above: every `PageStrings` enum in the
    /// server's and SignetWire's sources must be in the list.
    @Test func everyTableIsListed() throws {
        let listed = Set(PageText.tables.map { "\($0)" })
        var declared: Set<String> = []
        for folder in ["Sources/SignetServer", "Sources/SignetWire"] {
            let path = PackagePaths.packageRoot.appendingPathComponent(folder).path
            for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: (path as NSString).appendingPathComponent(name), encoding: .utf8)
                for line in text.split(separator: "\n") where (line.contains("PageStrings {") || line.contains("CatalogStrings {")) && line.contains("enum ") {
                    let afterEnum = line.split(separator: "enum ", maxSplits: 1).last ?? ""
                    if let table = afterEnum.split(separator: ":").first { declared.insert(String(table)) }
                }
                // A table whose keys another module names (SignetMail's `MailText`), given its words here.
                for line in text.split(separator: "\n") where line.hasPrefix("extension ") && line.contains(": CatalogStrings {") {
                    if let table = line.dropFirst("extension ".count).split(separator: ":").first { declared.insert(String(table)) }
                }
            }
        }
        #expect(!declared.isEmpty)
        #expect(declared == listed, "declared but not listed: \(declared.subtracting(listed)); listed but not declared: \(listed.subtracting(declared))")
    }

    /// Each key's English and German texts have the same placeholders, so no argument is lost.
    @Test func translationsKeepTheirPlaceholders() {
        func placeholders(_ text: String) -> [String] {
            (1...9).map { "{\($0)}" }.filter { text.contains($0) }
        }
        func texts<Table: PageStrings>(_ table: Table.Type) -> [(key: String, text: Localized)] { table.texts }
        for table in PageText.tables {
            for (key, text) in texts(table) {
                #expect(placeholders(text.en) == placeholders(text.de ?? text.en), "\(table).\(key)")
            }
        }
    }

    /// Every key of every catalog-backed table has its English text, and no catalog holds a key
    /// that no table declares.
    @Test func catalogsMatchTheTables() {
        func keys<Table: PageStrings>(_ table: Table.Type) -> [String] { table.allCases.map { "\(table).\($0)" } }
        let declared = Set(PageText.tables.flatMap { keys($0) })
        #expect(PageText.tables.flatMap { ($0 as? any CatalogStrings.Type)?.missingEnglish ?? [] } == [])
        #expect(PageCatalog.orphans(declared: declared) == [])
    }
}
