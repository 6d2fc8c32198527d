import SignetHTTP

/// Signet's server-rendered pages: one layout, HTML escaping, and the hardening headers every
/// page carries. The pages need no JavaScript.
enum HTMLPage {
    /// Escapes text for an HTML element body or a double- or single-quoted attribute.
    static func escape(_ text: String) -> String {
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

    /// A complete page. `title` is escaped here; `body` must already be safe HTML.
    static func render(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(escape(title)) · Signet</title>
        <style>
        body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
        main{max-width:26rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
        h1{font-size:1.4rem;margin:0 0 1rem}
        label{display:block;margin:.9rem 0 .3rem;font-weight:600}
        input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #b8bdc7;border-radius:.4rem}
        button{margin-top:1.2rem;padding:.65rem 1.2rem;font-size:1rem;border-radius:.4rem;border:1px solid #2456c9;background:#2456c9;color:#fff;cursor:pointer}
        button.secondary{background:#fff;color:#2456c9}
        .error{background:#fdecec;color:#8a1c1c;padding:.7rem;border-radius:.4rem}
        .muted{color:#5b6272;font-size:.9rem}
        ul{padding-left:1.2rem}
        </style>
        </head>
        <body>
        <main>
        <h1>\(escape(title))</h1>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    /// An HTML response with the hardening headers. `formLeadsToClient`: the page's form ends in
    /// a redirect to a client (sign-in, consent, account link, logout), so the CSP has no
    /// `form-action`: browsers check every hop of a form's redirect chain against it, and a
    /// client's redirect URI may redirect on (a broker's callback to its app, a web app's callback
    /// to its start page), which no list Signet could write would allow. Every other page keeps
    /// `form-action 'self'`.
    static func response(title: String, body: String, status: Int = 200, formLeadsToClient: Bool = false) -> HTTPResponse {
        var response = HTTPResponse.html(render(title: title, body: body), status: status)
        harden(&response, formLeadsToClient: formLeadsToClient)
        return response
    }

    /// An error page: a title and a plain message, both escaped.
    static func error(_ message: String, title: String = "Something is not right", status: Int = 400) -> HTTPResponse {
        response(title: title, body: "<p>\(escape(message))</p>\n<p class=\"muted\">Go back to the application and try again.</p>",
                 status: status)
    }

    /// Adds the headers every page and every redirect of the interactive endpoints carries.
    static func harden(_ response: inout HTTPResponse, formLeadsToClient: Bool = false) {
        let formAction = formLeadsToClient ? "" : "form-action 'self'; "
        response.headers.set("Cache-Control", "no-store")
        response.headers.set("Pragma", "no-cache")
        response.headers.set("X-Frame-Options", "DENY")
        response.headers.set("Content-Security-Policy",
                             "default-src 'none'; style-src 'unsafe-inline'; \(formAction)frame-ancestors 'none'")
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
