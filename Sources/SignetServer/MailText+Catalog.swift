import SignetMail
import SignetWire

/// The account mails' words are in the page catalogs, keyed `MailText.key` (SignetMail names the
/// keys, the catalogs hold the words).
extension MailText: CatalogStrings {
    /// The catalogs' text (public because `PageStrings`, which `MailText` now meets, is public).
    public var localized: Localized { PageCatalog.localized(Self.catalogKey(rawValue)) }
}

extension MailWords {
    /// The catalogs' words for the account mails, in `language`.
    public static func catalog(_ language: PageLanguage) -> MailWords {
        MailWords(language: language) { $0.localized }
    }
}
