import Foundation
import SignetWire

extension Settings {
    // MARK: branding
    /// The product's name.
    public static let brandingProductName = Setting(\SignetConfiguration.branding.productName, "product_name", "Signet",
                                                    .string(problem: { productNameProblem($0) }),
        "The product's name: the end of every page title (\"Sign in · Acme\"), the text above the sign-in card when there is no logo, and the sender and wording of every mail. 1 to 64 characters, no control characters.")
    /// The logo by URL.
    public static let brandingLogoURL = Setting(\SignetConfiguration.branding.logoURL, "logo_url", nil, .optionalURL,
        "A logo shown above every page's card, loaded from this URL (https, or http on a loopback address); its origin is added to the pages' CSP img-src. Not together with logo_file.")
    /// The logo as a file.
    public static let brandingLogoFile = Setting(\SignetConfiguration.branding.logoFile, "logo_file", nil, .optional(.string("path")),
        "A logo file (relative to data_dir) that Signet serves itself, same-origin, from /assets/logo-HASH.EXT with a year's cache: PNG, JPEG, WebP or SVG, recognised by its first bytes (not its name), at most 256 KiB; read when the server starts, which refuses another type or a larger file. SVG is served as an image with `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'` and nosniff, so a script inside it never runs, even when opened directly. Not together with logo_url.")
    /// The primary colour.
    public static let brandingPrimaryColor = Setting(\SignetConfiguration.branding.primaryColor, "primary_color", "#2456c9",
                                                     .string("#rrggbb", problem: { BrandColor(hex: $0) == nil ? "must be a colour as #rrggbb, such as \"#0a7d3b\"" : nil }),
        "The colour of buttons, links and the focus ring, and of the buttons in mail. The text on buttons is white or near-black, whichever reads better; links are darkened (light pages) or lightened (dark pages) until they reach a 4.5:1 contrast.")
    /// Support link.
    public static let brandingSupportURL = Setting(\SignetConfiguration.branding.supportURL, "support_url", nil, .optionalURL,
        "A \"Help\" link in every page's footer (https, or http on a loopback address). Unset: no link.")
    /// Developer documentation link.
    public static let brandingDocsURL = Setting(\SignetConfiguration.branding.docsURL, "docs_url", nil, .optionalURL,
        "A \"Documentation\" link for the developers of apps, on the landing page at / next to the discovery document and the JWKS (https, or http on a loopback address). Unset: no such link.")
    /// Terms link.
    public static let brandingTermsURL = Setting(\SignetConfiguration.branding.termsURL, "terms_url", nil, .optionalURL,
        "A \"Terms\" link in every page's footer (https, or http on a loopback address). Unset: no link.")
    /// Privacy link.
    public static let brandingPrivacyURL = Setting(\SignetConfiguration.branding.privacyURL, "privacy_url", nil, .optionalURL,
        "A \"Privacy\" link in every page's footer (https, or http on a loopback address). Unset: no link.")
    /// The settings of the `branding` object, in reference order.
    public static let branding = SettingsGroup<SignetConfiguration>(key: "branding", title: "Branding", settings: [
        brandingProductName.entry, brandingLogoURL.entry, brandingLogoFile.entry, brandingPrimaryColor.entry,
        brandingSupportURL.entry, brandingTermsURL.entry, brandingPrivacyURL.entry, brandingDocsURL.entry,
    ])

    /// Why a product name cannot stand in titles and mail headers, or nil.
    static func productNameProblem(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || name.count > 64 { return "must be 1 to 64 characters" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0.value != 0x200D }) {
            return "must not contain control characters"
        }
        return nil
    }
}
