import Foundation
import SignetWire

extension SignetConfiguration {
    /// How the pages and the mail present the product (`branding`; `BrandAssets` serves it).
    public struct Branding: Sendable {
        /// The product's name.
        public var productName: String = Settings.brandingProductName.defaultValue
        /// A logo by URL (checked when loaded).
        public var logoURL: String? = Settings.brandingLogoURL.defaultValue
        /// A logo file, relative to the data folder (read and checked when loaded and at start).
        public var logoFile: String? = Settings.brandingLogoFile.defaultValue
        /// The primary colour, `#rrggbb` (checked when loaded).
        public var primaryColor: String = Settings.brandingPrimaryColor.defaultValue
        /// The footer's help link.
        public var supportURL: String? = Settings.brandingSupportURL.defaultValue
        /// The landing page's documentation link.
        public var docsURL: String? = Settings.brandingDocsURL.defaultValue
        /// The footer's terms link.
        public var termsURL: String? = Settings.brandingTermsURL.defaultValue
        /// The footer's privacy link.
        public var privacyURL: String? = Settings.brandingPrivacyURL.defaultValue
    }

    /// The absolute path of `branding.logo_file`, or nil when none is set.
    public var logoFilePath: String? {
        branding.logoFile.map { $0.hasPrefix("/") ? $0 : (dataDirectory as NSString).appendingPathComponent($0) }
    }

    /// The brand the settings describe, for pages and mail; `logoPath` is the same-origin path of
    /// a served logo file (`BrandAssets`), which takes the place of `logo_url`.
    public func brand(logoPath: String? = nil) -> Brand {
        Brand(productName: branding.productName, logoURL: logoPath ?? branding.logoURL,
              primaryColor: BrandColor(hex: branding.primaryColor) ?? .signetBlue,
              supportURL: branding.supportURL, termsURL: branding.termsURL, privacyURL: branding.privacyURL)
    }

    /// The rules between the branding settings: one logo, and a logo file Signet can serve.
    func validateBranding(_ reader: ConfigReader) {
        if branding.logoURL != nil && branding.logoFile != nil {
            reader.report("branding.logo_file", "branding.logo_url and branding.logo_file: choose one")
        }
        if let path = logoFilePath {
            do { _ = try LogoFile(contentsOf: path) } catch { reader.report("branding.logo_file", error.message) }
        }
    }
}
