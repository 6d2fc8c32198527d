import SignetMail
import SignetStore
import SignetWire

extension MailQueue {
    /// `letter` to `email`, in `language` (the `Accept-Language` of the request that made it;
    /// the words from the page catalogs, `MailText`) with `brand`, sealed as an outbox row: the
    /// caller stores it in its action's transaction and calls `notifySender()` after the commit.
    /// The mail is rendered here, so its language is fixed when the action happens.
    func seal(_ letter: AccountMail, to email: String, brand: Brand, language: PageLanguage) throws -> OutboxMessageRecord {
        // The sender is picked at send time (`mail.from`); the address here only shapes the message.
        let to = try MailAddress(email)
        let message = letter.message(brand: brand, words: .catalog(language), from: to, to: to)
        return try seal(to: to, subject: message.subject, text: message.text, html: message.html)
    }
}
