import SignetCrypto
import SignetHTTP
import SignetWire

/// The brand as the server serves it, made once at start from the `branding` settings: the
/// stylesheet (`/assets/signet-HASH.css`, generated from the brand's colours), the logo file when
/// there is one (`/assets/logo-HASH.EXT`), and what the pages' CSP must allow for the logo. The
/// paths carry a hash of the content, so both are cached for a year and a new brand is a new URL.
struct BrandAssets: Sendable {
    /// The brand the pages and the mail show.
    let brand: Brand
    /// The stylesheet's path.
    let stylesheetPath: String
    /// The stylesheet.
    let stylesheet: [UInt8]
    /// The logo file, when `branding.logo_file` is set.
    let logo: LogoFile?
    /// The CSP `img-src` sources the logo needs: `'self'` for a logo file, the origin of
    /// `branding.logo_url`, or none.
    let imageSources: [String]

    /// Reads the logo file (refusing it as at load time) and generates the stylesheet.
    init(configuration: SignetConfiguration) throws(ConfigurationError) {
        var logo: LogoFile?
        if let path = configuration.logoFilePath {
            do throws(LogoFile.Problem) { logo = try LogoFile(contentsOf: path) } catch {
                throw ConfigurationError(issues: [ConfigurationIssue(path: "branding.logo_file", message: error.message)])
            }
        }
        self.init(brand: configuration.brand(logoPath: logo?.path), logo: logo)
    }

    /// The assets of `brand` (Signet's own look by default).
    init(brand: Brand = .signet, logo: LogoFile? = nil) {
        self.brand = brand
        self.logo = logo
        stylesheet = Array(PageLayout.stylesheet(for: brand).utf8)
        stylesheetPath = "/assets/signet-" + Base64URL.encode(Array(Digest.sha256(stylesheet).prefix(9))) + ".css"
        if logo != nil {
            imageSources = ["'self'"]
        } else if let url = brand.logoURL, let source = HTMLPage.cspSource(for: url) {
            imageSources = [source]
        } else {
            imageSources = []
        }
    }

    /// `GET /assets/signet-HASH.css`.
    func stylesheetResponse() -> HTTPResponse {
        Self.asset(stylesheet, type: "text/css; charset=utf-8")
    }

    /// `GET /assets/logo-HASH.EXT`. An SVG gets a CSP of its own: opened directly it is a
    /// document, and `default-src 'none'` keeps any script or reference inside it from running.
    func logoResponse(_ logo: LogoFile) -> HTTPResponse {
        var response = Self.asset(logo.bytes, type: logo.kind.contentType)
        if logo.kind == .svg { response.headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'") }
        return response
    }

    /// A static asset: its type, nosniff, and a year's cache (RFC 8246 `immutable`: the path
    /// changes with the content). The console's assets (`ConsoleAssets`) are served the same way.
    static func asset(_ bytes: [UInt8], type: String) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: bytes)
        response.headers.set("Content-Type", type)
        response.headers.set("Cache-Control", "public, max-age=31536000, immutable")
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }
}
