import Foundation
import SignetCore
import SignetHTTP
import SignetStore
import SignetWire

/// What a password reset does to passkeys (docs/accounts.md, "Resetting a password"): they are
/// kept unless the form's box asks to remove them all, and the page after the reset says which
/// and lists what was kept. The box's answer is read only once the code is proven; the form
/// before that names no passkey, since anyone who knows the address can open it.
extension SelfServiceRoutes {
    /// The reset form's field name for "also remove every passkey".
    static let removePasskeysField = "remove_passkeys"

    /// Whether the reset form asked to remove the passkeys.
    static func removesPasskeys(_ form: RequestParameters?) -> Bool {
        (try? form?.single(removePasskeysField)) == "1"
    }

    /// The reset form's "also remove every passkey" box and its hint.
    static func removePasskeysBox(checked: Bool, page: PageContext) -> String {
        var html = "<label class=\"choice\"><input type=\"checkbox\" name=\"\(removePasskeysField)\" value=\"1\"\(checked ? " checked" : "")> "
        html += "\(page.html(PasskeyText.resetRemoveLabel))</label>\n"
        return html + "<p class=\"muted\">\(page.html(PasskeyText.resetRemoveHint))</p>\n"
    }

    /// After the new password is set: removes the user's passkeys when `remove`, and returns the
    /// done page's paragraph about them (nothing when the account has none).
    func resetPasskeys(userID: String, remove: Bool, page: PageContext) throws -> String {
        let store = server.storage.passkeys
        let passkeys = try store.passkeys(userID: userID)
        guard !passkeys.isEmpty else { return "" }
        guard !remove else {
            for passkey in passkeys where try store.deletePasskey(id: passkey.id, userID: userID) {
                server.auditor.record("passkey_removed", subject: userID, detail: ["via": .string("password_reset")])
            }
            return "<p>\(page.html(PasskeyText.resetRemoved))</p>\n"
        }
        var html = "<p>\(page.html(PasskeyText.resetKept))</p>\n<ul>\n"
        for passkey in passkeys {
            let used = passkey.lastUsedAt.map(PasskeyRoutes.day) ?? page.text(PasskeyText.manageNeverUsed)
            html += "<li>\(HTMLPage.escape(passkey.name)) · \(page.html(PasskeyText.manageCreated)) \(PasskeyRoutes.day(passkey.createdAt)) · "
            html += "\(page.html(PasskeyText.manageLastUsed)) \(HTMLPage.escape(used))</li>\n"
        }
        return html + "</ul>\n<p><a href=\"\(Routes.accountPasskeys)\">\(page.html(PasskeyText.manageTitle))</a></p>\n"
    }
}
