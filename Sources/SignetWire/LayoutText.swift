/// The strings of the page layout itself: the footer's links.
public enum LayoutText: String, PageStrings {
    case support, terms, privacy

    public var localized: Localized {
        switch self {
        case .support: Localized("Help", de: "Hilfe")
        case .terms: Localized("Terms", de: "Nutzungsbedingungen")
        case .privacy: Localized("Privacy", de: "Datenschutz")
        }
    }
}
