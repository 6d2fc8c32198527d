import SignetHTTP

/// The public listener's `/`: a page in the brand with the product's name and the links a
/// developer or a lost visitor needs (discovery, JWKS, the account page, the documentation when
/// `branding.docs_url` is set), instead of a JSON 404.
enum LandingPage {
    static func response(_ page: PageContext, docsURL: String?) -> HTTPResponse {
        var body = "<p>\(page.html(ConsoleText.landingIntro, "<strong>\(esc(page.brand.productName))</strong>"))</p>\n<ul id=\"links\">\n"
        body += "<li><a href=\"\(Routes.account)\">\(esc(page.text(ConsoleText.landingAccount)))</a></li>\n"
        body += "<li><a href=\"\(Routes.openIDConfiguration)\">\(esc(page.text(ConsoleText.landingDiscovery)))</a></li>\n"
        body += "<li><a href=\"\(Routes.jwks)\">\(esc(page.text(ConsoleText.landingJWKS)))</a></li>\n"
        if let docsURL { body += "<li><a href=\"\(esc(docsURL))\">\(esc(page.text(ConsoleText.landingDocs)))</a></li>\n" }
        body += "</ul>\n"
        return HTMLPage.response(page, title: page.text(ConsoleText.landingTitle), body: body)
    }
}
