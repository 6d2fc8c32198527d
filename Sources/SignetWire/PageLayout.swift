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

    /// A complete page. `title` is escaped here; `body` must already be safe HTML.
    public static func render(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title)) · Signet</title>
        <style>
        body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f4f5f7;color:#1d2330;margin:0;padding:0 1rem}
        main{max-width:26rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:.75rem;box-shadow:0 1px 4px rgba(0,0,0,.12)}
        h1{font-size:1.4rem;margin:0 0 1rem}
        label{display:block;margin:.9rem 0 .3rem;font-weight:600}
        input[type=email],input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #b8bdc7;border-radius:.4rem}
        button{margin-top:1.2rem;padding:.65rem 1.2rem;font-size:1rem;border-radius:.4rem;border:1px solid #2456c9;background:#2456c9;color:#fff;cursor:pointer}
        button.secondary{background:#fff;color:#2456c9}
        .error{background:#fdecec;color:#8a1c1c;padding:.7rem;border-radius:.4rem}
        .muted{color:#5b6272;font-size:.9rem}
        ul{padding-left:1.2rem}
        a{color:#2456c9}
        a.provider{display:block;margin:.5rem 0;padding:.6rem;border:1px solid #b8bdc7;border-radius:.4rem;color:inherit;text-decoration:none;text-align:center}
        a.provider img{vertical-align:middle}
        @media (prefers-color-scheme:dark){
        body{background:#101317;color:#e4e7eb}
        main{background:#1a1e24;box-shadow:0 1px 4px rgba(0,0,0,.6)}
        input[type=email],input[type=password],input[type=text]{background:#0e1114;color:#e4e7eb;border-color:#3b424c}
        button{border-color:#5b8def;background:#3d6fe0}
        button.secondary{background:transparent;color:#8fb0ff;border-color:#8fb0ff}
        .error{background:#3a1b1b;color:#ffc2c2}
        .muted{color:#9aa3ae}
        a{color:#8fb0ff}
        a.provider{color:#e4e7eb;border-color:#3b424c}
        }
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
}
