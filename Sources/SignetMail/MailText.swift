import SignetWire

/// The keys of the account mails' words. The words are not here: they are in the server's page
/// catalogs (`PageCatalog+English.swift`, `PageCatalog+German.swift`, keyed `MailText.key`, with
/// the pages' strings), so a translator works in one file per language and the translation test
/// covers the mail too. The server hands them to `AccountMail.message` as `MailWords`.
/// `{1}` is the product's name wherever a key has it; the other placeholders are named in the
/// English catalog.
public enum MailText: String, CaseIterable, Sendable {
    case verifySubject, verifyIntro, verifyAction, verifyClosing
    case resetSubject, resetIntro, resetAction, resetClosing
    case signInSubject, signInIntro, signInAction, signInClosing
    case existsSubject, existsIntro, existsReset, existsClosing
    case noAccountSubject, noAccountIntro, noAccountSignUp, noAccountClosing
    case deletedSubject, deletedIntro, deletedClosing
    case changedSubject, changedIntro, changedClosing
    case newEmailSubject, newEmailIntro, newEmailAction, newEmailClosing
    case inUseSubject, inUseIntro, inUseClosing
    case inviteSubject, inviteIntro, inviteAction, inviteClosing
    case ssoSubject, ssoIntro, ssoClosing
    case passkeyAddedSubject, passkeyAddedIntro, passkeyAddedAction, passkeyAddedClosing
    case totpLockedSubject, totpLockedIntro, totpLockedClosing
}

/// The words of the account mails in one language: each `MailText` key's text in every language
/// (the server's catalogs), and the language of this mail (the `Accept-Language` of the request
/// that made it).
public struct MailWords: Sendable {
    /// The language the mail is written in (also its HTML's `lang`).
    public let language: PageLanguage
    private let lookup: @Sendable (MailText) -> Localized

    /// The words of `lookup` in `language`.
    public init(language: PageLanguage, lookup: @escaping @Sendable (MailText) -> Localized) {
        self.language = language
        self.lookup = lookup
    }

    /// `key` in this language, `{1}`, `{2}`, … replaced by `arguments` (plain text; the HTML
    /// layout escapes it).
    func callAsFunction(_ key: MailText, _ arguments: String...) -> String {
        lookup(key).text(language, arguments)
    }
}
