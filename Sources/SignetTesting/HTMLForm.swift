import Foundation
import SignetMacros

/// A `<form>` found on a page: where it goes, how, and the controls it would submit.
@MemberwiseInit
public struct HTMLForm: Sendable, CustomStringConvertible {
    /// The `action`, resolved against the page URL (the page itself when absent or empty).
    public let action: URL
    /// The `action` attribute as written, if any.
    public let rawAction: String?
    /// `GET` or `POST` (uppercased; GET when absent).
    public let method: String
    /// The `id` attribute, if any.
    public let id: String?
    /// Every named, enabled control in document order, buttons included.
    public let controls: [HTMLFormField]

    /// The controls submitted without pressing a button: non-button controls, with unchecked
    /// checkboxes and radios left out.
    public var fields: [HTMLFormField] {
        controls.filter { !$0.isButton && (($0.type != "checkbox" && $0.type != "radio") || $0.checked) }
    }

    /// The submit buttons.
    public var buttons: [HTMLFormField] { controls.filter(\.isButton) }

    /// The value of the first submitted field named `name`.
    public func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The name/value pairs a browser would submit: `fields`, with `overrides` replacing the value
    /// of the first field of that name (or appended when the form has none), fields named in
    /// `removing` left out, and the button named `pressing` added last.
    public func submission(overrides: [String: String] = [:], removing: Set<String> = [],
                           pressing button: String? = nil) throws -> [(String, String)] {
        var pairs: [(String, String)] = []
        var applied: Set<String> = []
        for field in fields where !removing.contains(field.name) {
            if let override = overrides[field.name], !applied.contains(field.name) {
                pairs.append((field.name, override))
                applied.insert(field.name)
            } else {
                pairs.append((field.name, field.value))
            }
        }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) where !applied.contains(name) && !removing.contains(name) {
            pairs.append((name, value))
        }
        if let button {
            guard let pressed = buttons.first(where: { $0.name == button }) else {
                throw TestingError("the form to \(action.path) has no button named \"\(button)\"; buttons: \(buttons.map(\.name))")
            }
            pairs.append((pressed.name, pressed.value))
        }
        return pairs
    }

    /// Every `<form>` in `html`, with actions resolved against `pageURL`.
    public static func forms(in html: String, pageURL: URL) -> [HTMLForm] {
        var forms: [HTMLForm] = []
        var current: (action: String?, method: String, id: String?, controls: [HTMLFormField])?
        var select: (name: String, first: String?, selected: String?, disabled: Bool)?
        var option: (value: String?, selected: Bool, text: String)?
        var textarea: (name: String, text: String, disabled: Bool)?

        func closeOption() {
            guard let pending = option else { return }
            option = nil
            let value = pending.value ?? pending.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if select?.first == nil { select?.first = value }
            if pending.selected { select?.selected = value }
        }

        func finishForm() {
            guard let form = current else { return }
            let resolved = form.action.flatMap { $0.isEmpty ? nil : URL(string: $0, relativeTo: pageURL)?.absoluteURL } ?? pageURL
            forms.append(HTMLForm(action: resolved, rawAction: form.action, method: form.method, id: form.id, controls: form.controls))
            current = nil
        }

        for token in HTMLScanner.tokens(html) {
            switch token {
            case .start(let name, let list, _):
                var attributes: [String: String] = [:]
                for (key, value) in list where attributes[key] == nil { attributes[key] = value }
                let disabled = attributes["disabled"] != nil
                switch name {
                case "form":
                    finishForm()   // forms do not nest; an unclosed one ends here
                    current = (attributes["action"], (attributes["method"] ?? "GET").uppercased(), attributes["id"], [])
                case "input" where current != nil:
                    guard let fieldName = attributes["name"], !disabled else { continue }
                    let type = (attributes["type"] ?? "text").lowercased()
                    if ["reset", "file"].contains(type) { continue }
                    let defaultValue = (type == "checkbox" || type == "radio") ? "on" : ""
                    current?.controls.append(HTMLFormField(name: fieldName, value: attributes["value"] ?? defaultValue,
                                                           type: type, checked: attributes["checked"] != nil))
                case "button" where current != nil:
                    let type = (attributes["type"] ?? "submit").lowercased()
                    if type == "submit", let buttonName = attributes["name"], !disabled {
                        current?.controls.append(HTMLFormField(name: buttonName, value: attributes["value"] ?? "", type: "button"))
                    }
                case "select" where current != nil:
                    select = (attributes["name"] ?? "", nil, nil, disabled)
                case "option" where select != nil:
                    closeOption()
                    option = (attributes["value"], attributes["selected"] != nil, "")
                case "textarea" where current != nil:
                    textarea = (attributes["name"] ?? "", "", disabled)
                default:
                    break
                }
            case .text(let text):
                if option != nil { option?.text += text }
                if textarea != nil { textarea?.text += text }
            case .end(let name):
                switch name {
                case "form": finishForm()
                case "option": closeOption()
                case "select":
                    closeOption()
                    if let pending = select, !pending.name.isEmpty, !pending.disabled {
                        current?.controls.append(HTMLFormField(name: pending.name, value: pending.selected ?? pending.first ?? "", type: "select"))
                    }
                    select = nil
                case "textarea":
                    if let pending = textarea, !pending.name.isEmpty, !pending.disabled {
                        // HTML: one leading newline right after <textarea> is not part of the value.
                        let value = pending.text.hasPrefix("\n") ? String(pending.text.dropFirst()) : pending.text
                        current?.controls.append(HTMLFormField(name: pending.name, value: value, type: "textarea"))
                    }
                    textarea = nil
                default: break
                }
            }
        }
        finishForm()
        return forms
    }

    /// Method, action and controls (password values hidden).
    public var description: String {
        "<form \(method) \(action.absoluteString)> " + controls.map(\.description).joined(separator: ", ")
    }
}
