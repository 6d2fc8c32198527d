/// The layout of every page Signet shows a person, in one place: the server's pages and the
/// page SignetKit's loopback listener shows after a sign-in. HTML escaping, the document shell
/// and the stylesheet; no script.
public enum PageLayout {
    /// Escapes text for an HTML element body or a double- or single-quoted attribute.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// How a page gets its stylesheet.
    public enum Stylesheet: Sendable, Equatable {
        /// A `<link>` to a same-origin asset (the server's pages: CSP `style-src 'self'`).
        case linked(path: String)
        /// An inline `<style>` of Signet's own look (SignetKit's loopback page, which serves no
        /// assets: its CSP keeps `style-src 'unsafe-inline'`).
        case inline
    }

    /// A complete page in Signet's own look, English, with the stylesheet inline: SignetKit's
    /// loopback page. `title` is escaped here; `body` must already be safe HTML.
    public static func render(title: String, body: String) -> String {
        render(title: title, body: body, brand: .signet, language: .en, stylesheet: .inline)
    }

    /// A complete page: the title "page · product", the logo (or the product's name) above the
    /// card, the footer's links when set, `<html lang>` of `language`. `title` is escaped here;
    /// `body` must already be safe HTML.
    public static func render(title: String, body: String, brand: Brand, language: PageLanguage, stylesheet: Stylesheet) -> String {
        let style: String
        switch stylesheet {
        case .linked(let path): style = "<link rel=\"stylesheet\" href=\"\(escape(path))\">"
        case .inline: style = "<style>\n\(self.stylesheet(for: brand))</style>"
        }
        let mark = brand.logoURL.map { "<img src=\"\(escape($0))\" alt=\"\(escape(brand.productName))\" height=\"40\">" }
            ?? "<span>\(escape(brand.productName))</span>"
        let links = [(brand.supportURL, LayoutText.support), (brand.termsURL, .terms), (brand.privacyURL, .privacy)]
            .compactMap { url, key in url.map { "<a href=\"\(escape($0))\">\(key.localized.html(language))</a>" } }
        let footer = links.isEmpty ? "" : "<footer>\(links.joined(separator: " · "))</footer>\n"
        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta name="color-scheme" content="light dark">
            <title>\(escape(title)) · \(escape(brand.productName))</title>
            \(style)
            </head>
            <body>
            <header class="brand">\(mark)</header>
            <main>
            <h1>\(escape(title))</h1>
            \(body)
            </main>
            \(footer)</body>
            </html>

            """
    }

    /// The stylesheet of `brand`: Signet's layout in the brand's colours (each derived colour
    /// readable where it is used, `Brand.Palette`), light and dark (`prefers-color-scheme`), a
    /// card with margins at phone width. Generated once per brand; no `url()`, no import.
    public static func stylesheet(for brand: Brand) -> String {
        let p = brand.palette
        return """
            body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1d2330;margin:0;padding:0 1rem}
            header.brand{max-width:26rem;margin:2.5rem auto 1rem;text-align:center;font-weight:700;font-size:1.15rem}
            header.brand img{max-height:40px;max-width:100%;vertical-align:middle}
            main{max-width:26rem;margin:0 auto 2rem;background:#fff;padding:2rem;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
            h1{font-size:1.4rem;margin:0 0 1rem}
            label{display:block;margin:.9rem 0 .3rem;font-weight:600}
            input[type=email],input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #b8bdc7;border-radius:.4rem}
            input:focus,button:focus,a:focus{outline:2px solid \(p.link);outline-offset:2px}
            button{margin-top:1.2rem;padding:.65rem 1.2rem;font-size:1rem;border-radius:.4rem;border:1px solid \(p.primary);background:\(p.primary);color:\(p.onPrimary);cursor:pointer}
            button.secondary{background:#fff;color:\(p.link);border-color:\(p.link)}
            .error{background:#fdecec;color:#8a1c1c;padding:.7rem;border-radius:.4rem}
            .notice{background:#e8f5ec;color:#1c5a2e;padding:.7rem;border-radius:.4rem}
            .muted{color:#5b6272;font-size:.9rem}
            ul{padding-left:1.2rem}
            div.qr{max-width:15rem;margin:1rem 0}
            #totp-secret{font-size:1.1rem;word-spacing:.3rem}
            a{color:\(p.link)}
            a.provider{display:block;margin:.5rem 0;padding:.6rem;border:1px solid #b8bdc7;border-radius:.4rem;color:inherit;text-decoration:none;text-align:center}
            a.provider img{vertical-align:middle}
            button.choice{display:block;width:100%;text-align:left;margin:.5rem 0;background:#fff;color:inherit;border-color:#b8bdc7}
            button.choice span{display:block}
            input.code{font-size:1.5rem;letter-spacing:.4rem;font-family:ui-monospace,Menlo,Consolas,monospace}
            button.link{display:block;background:none;border:none;color:\(p.link);text-decoration:underline;padding:0;margin:.4rem 0 0;font-size:.9rem}
            footer{max-width:26rem;margin:0 auto 2rem;text-align:center;font-size:.85rem;color:#5b6272}
            footer a{color:inherit}
            @media (max-width:30rem){
            body{padding:0 .75rem}
            header.brand{margin:1.25rem auto .75rem}
            main{padding:1.25rem;margin-bottom:1.25rem}
            }
            @media (prefers-color-scheme:dark){
            body{background:#101317;color:#e4e7eb}
            main{background:\(BrandColor.darkCard);box-shadow:0 1px 4px rgba(0,0,0,.6)}
            input[type=email],input[type=password],input[type=text]{background:#0e1114;color:#e4e7eb;border-color:#3b424c}
            input:focus,button:focus,a:focus{outline-color:\(p.linkDark)}
            button.secondary{background:transparent;color:\(p.linkDark);border-color:\(p.linkDark)}
            .error{background:#3a1b1b;color:#ffc2c2}
            .notice{background:#17301f;color:#b9f0c8}
            .muted,footer{color:#9aa3ae}
            a{color:\(p.linkDark)}
            a.provider{color:#e4e7eb;border-color:#3b424c}
            button.choice{background:transparent;color:#e4e7eb;border-color:#3b424c}
            button.link{background:none;color:\(p.linkDark)}
            }

            """
    }
}
