import SignetHTTP
import SignetWire

/// What a page needs besides its own content: the brand (with its stylesheet and logo) and the
/// language of the request (`Accept-Language`). Every page handler gets one from its route's
/// `ErrorRenderer` (`errors.page`), bound to the request being answered.
struct PageContext: Sendable {
    /// The brand as served.
    let assets: BrandAssets
    /// The language the page is written in.
    let language: PageLanguage

    /// The context for `request`: its `Accept-Language`.
    init(assets: BrandAssets, request: HTTPRequest) {
        self.init(assets: assets, language: PageLanguage.preferred(acceptLanguage: request.headers["Accept-Language"]))
    }

    init(assets: BrandAssets, language: PageLanguage) {
        self.assets = assets
        self.language = language
    }

    /// The brand.
    var brand: Brand { assets.brand }

    /// `key` in the page's language, as plain text (escape it before it goes into HTML).
    func text(_ key: some PageStrings, _ arguments: String...) -> String {
        key.localized.text(language, arguments)
    }

    /// `key` in the page's language as HTML: its words escaped, `arguments` (already HTML) put in.
    func html(_ key: some PageStrings, _ arguments: String...) -> String {
        key.localized.html(language, arguments)
    }

    /// The whole document.
    func render(title: String, body: String) -> String {
        PageLayout.render(title: title, body: body, brand: assets.brand, language: language,
                          stylesheet: .linked(path: assets.stylesheetPath))
    }
}
