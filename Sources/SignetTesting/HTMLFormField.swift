import SignetMacros

/// One control of an HTML form, as the page declared it.
@MemberwiseInit
public struct HTMLFormField: Sendable, Equatable, CustomStringConvertible {
    /// The control's `name`.
    public var name: String
    /// Its current value (`value` attribute, textarea text, or the selected option).
    public var value: String
    /// `hidden`, `text`, `password`, `checkbox`, `radio`, `submit`, `button` (a `<button>`),
    /// `select`, `textarea`, …
    public var type: String
    /// For checkboxes and radios: whether it is checked (unchecked ones are not submitted).
    public var checked: Bool = false

    /// Whether this control is a submit button (only the pressed one is submitted).
    public var isButton: Bool { type == "submit" || type == "button" || type == "image" }

    /// `type name=value`; password values are not shown.
    public var description: String { "\(type) \(name)=\(type == "password" ? "<redacted>" : value)" }
}
