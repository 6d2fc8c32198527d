import SignetHTTP
import SignetWire

/// Signet's server-rendered pages: one layout (`PageLayout`, in the brand and language of a
/// `PageContext`), HTML escaping, and the hardening headers every page carries (error pages come
/// from `ErrorRenderer`). The pages need no JavaScript.
enum HTMLPage {
    /// Escapes text for an HTML element body or a double- or single-quoted attribute.
    static func escape(_ text: String) -> String { PageLayout.escape(text) }

    /// An HTML page in `page`'s brand and language, with the hardening headers. `title` is
    /// escaped; `body` must already be safe HTML. `formLeadsToClient`: the page's form ends in a
    /// redirect to a client (sign-in, consent, account link, logout), so the CSP has no
    /// `form-action`: browsers check every hop of a form's redirect chain against it, and a
    /// client's redirect URI may redirect on (a broker's callback to its app, a web app's callback
    /// to its start page), which no list Signet could write would allow. Every other page keeps
    /// `form-action 'self'`. `imageSources`: what `img-src` must allow besides the brand's logo
    /// (the provider logos of the sign-in page). `cookie`: the browser's CSRF cookie, when it had
    /// none yet (`InteractiveRoutes.browserValue`).
    static func response(_ page: PageContext, title: String, body: String, status: Int = 200, formLeadsToClient: Bool = false,
                         imageSources: [String] = [], cookie: SetCookie? = nil) -> HTTPResponse {
        var response = HTTPResponse.html(page.render(title: title, body: body), status: status)
        harden(&response, formLeadsToClient: formLeadsToClient, imageSources: page.assets.imageSources + imageSources)
        if let cookie { response.setCookie(cookie) }
        // The words depend on the request's Accept-Language (RFC 9110 §12.5.5).
        response.headers.set("Vary", "Accept-Language")
        return response
    }

    /// Adds the headers every page and every redirect of the interactive endpoints carries. The
    /// CSP allows the same-origin stylesheet and nothing else: no script, no inline style, no
    /// image but `imageSources` (one `img-src` directive, last).
    static func harden(_ response: inout HTTPResponse, formLeadsToClient: Bool = false, imageSources: [String] = []) {
        let formAction = formLeadsToClient ? "" : "form-action 'self'; "
        var images: [String] = []
        for source in imageSources where !images.contains(source) { images.append(source) }
        let imageDirective = images.isEmpty ? "" : "; img-src " + images.joined(separator: " ")
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Pragma", "no-cache")
        response.headers.set("X-Frame-Options", "DENY")
        response.headers.set("Content-Security-Policy",
                             "default-src 'none'; style-src 'self'; \(formAction)frame-ancestors 'none'\(imageDirective)")
        response.headers.set("Referrer-Policy", "no-referrer")
        response.headers.set("X-Content-Type-Options", "nosniff")
    }

    /// A hidden form field.
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
    }

    /// The CSP source expression for `uri`: `scheme:` for a private-use scheme,
    /// `scheme://host:port` for http(s) (provider logos' `img-src`). Nil when the URI does not
    /// reduce to a safe expression (it is then simply not added).
    static func cspSource(for uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let scheme = uri[..<colon].lowercased()
        guard !scheme.isEmpty, scheme.unicodeScalars.allSatisfy({ "abcdefghijklmnopqrstuvwxyz0123456789+.-".unicodeScalars.contains($0) })
        else { return nil }
        guard scheme == "http" || scheme == "https" else { return scheme + ":" }
        let rest = uri[uri.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]"
        guard !authority.isEmpty, authority.unicodeScalars.allSatisfy({ allowed.unicodeScalars.contains($0) }) else { return nil }
        return scheme + "://" + authority
    }
}
