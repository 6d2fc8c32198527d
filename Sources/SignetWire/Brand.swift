/// How the pages and the mail present the product: its name, its logo, its colours and the links
/// of the footer. Made once from the `branding` settings (`SignetConfiguration.brand`); the
/// default is Signet's own look.
public struct Brand: Sendable, Equatable {
    /// The product's name, such as "Acme Notes": every page title ends with it, and mail is
    /// sent in its name.
    public var productName: String
    /// Where the logo is: an absolute https URL or a same-origin path (`/assets/logo-….png`); nil:
    /// no logo, the product name is shown instead.
    public var logoURL: String?
    /// The primary colour: buttons, links and the focus ring, light and dark.
    public var primaryColor: BrandColor
    /// The footer's links; nil ones are left out.
    public var supportURL: String?
    /// The terms of service.
    public var termsURL: String?
    /// The privacy policy.
    public var privacyURL: String?

    /// Signet's own look: the name "Signet", no logo, Signet's blue, no footer links.
    public static let signet = Brand(productName: "Signet")

    /// A brand; the colour is a `BrandColor` already checked.
    public init(productName: String, logoURL: String? = nil, primaryColor: BrandColor = .signetBlue,
                supportURL: String? = nil, termsURL: String? = nil, privacyURL: String? = nil) {
        self.productName = productName
        self.logoURL = logoURL
        self.primaryColor = primaryColor
        self.supportURL = supportURL
        self.termsURL = termsURL
        self.privacyURL = privacyURL
    }

    /// A brand from a colour given as text; a colour that is not `#rrggbb` falls back to Signet's blue.
    public init(productName: String, accentColor: String) {
        self.init(productName: productName, primaryColor: BrandColor(hex: accentColor) ?? .signetBlue)
    }

    /// The button colour of mail and pages, `#rrggbb`.
    public var accentColor: String { primaryColor.description }

    /// The colours derived from the primary one, each readable where it is used.
    public var palette: Palette { Palette(primary: primaryColor) }

    /// The primary colour and what is derived from it (WCAG 2.2 AA: 4.5:1 for text).
    public struct Palette: Sendable, Equatable {
        /// Button background (both schemes).
        public let primary: BrandColor
        /// Text on a primary button: white or near-black, whichever reads better.
        public let onPrimary: BrandColor
        /// Links and outline buttons on the light card: the primary, darkened until it reads on white.
        public let link: BrandColor
        /// Links and outline buttons on the dark card: the primary, lightened until it reads there.
        public let linkDark: BrandColor

        init(primary: BrandColor) {
            self.primary = primary
            onPrimary = primary.textOn
            link = primary.readable(on: .white, toward: BrandColor(red: 0, green: 0, blue: 0))
            linkDark = primary.readable(on: .darkCard, toward: .white)
        }
    }
}
