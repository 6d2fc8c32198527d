import Foundation
import SignetCrypto
import SignetHTTP

/// The console's two same-origin assets, each named by its hash (cached for a year, a new version
/// is a new URL): a stylesheet that widens the pages' card into the console's layout (tables,
/// navigation, code, light and dark, phone width), and the app form's script, which checks each
/// redirect URI as it is typed by the rules `RedirectURI(registering:)` and `ClientRegistration`
/// apply on the server (the server decides; the script only tells sooner). The pages work without
/// the script.
enum ConsoleAssets {
    static let stylesheet = #"""
    main:has(nav.console),header.brand:has(+main nav.console){max-width:64rem}
    nav.console{display:flex;flex-wrap:wrap;gap:.25rem .9rem;margin:-.5rem 0 1rem;padding-bottom:.6rem;border-bottom:1px solid #d5d9e0}
    nav.console a{text-decoration:none;padding:.2rem 0}
    nav.console a[aria-current=page]{font-weight:700;border-bottom:2px solid currentColor}
    div.operator{display:flex;flex-wrap:wrap;align-items:baseline;gap:.2rem 1rem;margin:0 0 1rem}
    div.operator form{margin:0}
    div.operator button.link{margin:0}
    div.table{overflow-x:auto;margin:1rem 0}
    table{border-collapse:collapse;width:100%;font-size:.95rem}
    th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e1e4e9;vertical-align:top}
    th{font-weight:600}
    code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;overflow-wrap:anywhere}
    pre{background:#f1f3f6;padding:.8rem;border-radius:.4rem;overflow-x:auto;font-size:.85rem;line-height:1.4}
    pre code{overflow-wrap:normal;font-size:inherit}
    pre code#client-secret{white-space:pre-wrap;word-break:break-all;font-size:1rem}
    dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:1rem 0}
    dl.facts dt{font-weight:600}
    dl.facts dd{margin:0;min-width:0}
    div.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.8rem;margin:0 0 1.2rem}
    div.tile{border:1px solid #d5d9e0;border-radius:.5rem;padding:.8rem}
    div.tile .value{display:block;font-size:1.8rem;font-weight:700}
    div.tile .label{color:#5b6272;font-size:.9rem}
    fieldset{border:1px solid #d5d9e0;border-radius:.5rem;margin:0 0 .5rem;padding:.5rem .9rem}
    legend{font-weight:600;padding:0 .3rem}
    label.choice{display:flex;flex-wrap:wrap;gap:.2rem .5rem;align-items:baseline;font-weight:400;margin:.5rem 0}
    label.choice span{flex-basis:100%;margin-left:1.6rem}
    textarea,input[type=search]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #b8bdc7;border-radius:.4rem;font-family:ui-monospace,Menlo,Consolas,monospace}
    input[type=search]{font-family:inherit}
    select{padding:.5rem .6rem;font-size:1rem;border:1px solid #b8bdc7;border-radius:.4rem;background:inherit;color:inherit;margin:0 .5rem .5rem 0}
    div.member div.actions{align-items:flex-end}
    textarea[aria-invalid=true],input[aria-invalid=true]{border-color:#b42318;outline:1px solid #b42318}
    .field-status{min-height:1.2rem;margin:.3rem 0;font-size:.9rem}
    .field-status.bad{color:#8a1c1c}
    .field-status.good{color:#1c5a2e}
    aside.rules{background:#f1f3f6;border-radius:.4rem;padding:.2rem .9rem;font-size:.9rem;margin:.5rem 0}
    section{margin:1.5rem 0}
    h2{font-size:1.1rem;margin:1.2rem 0 .5rem}
    h3{font-size:1rem;margin:1rem 0 .4rem}
    a.button{display:inline-block;padding:.55rem 1rem;border-radius:.4rem;border:1px solid currentColor;text-decoration:none}
    button.danger{background:#b42318;border-color:#b42318;color:#fff}
    div.actions{display:flex;flex-wrap:wrap;gap:0 .8rem}
    form.search,form.filters{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.5rem .8rem}
    form.search label,form.filters label{flex-basis:100%;margin-bottom:0}
    form.filters label{flex-basis:auto}
    form.search input{flex:1 1 12rem;width:auto}
    form.search button,form.filters button{margin-top:0}
    form.filters div{flex:1 1 12rem}
    section.secret{border:2px solid #c27c0e;border-radius:.5rem;padding:.2rem .9rem}
    section.item{border-top:1px solid #e1e4e9;padding-top:.3rem}
    @media (max-width:30rem){
    dl.facts{grid-template-columns:1fr;gap:.1rem}
    dl.facts dd{margin-bottom:.5rem}
    th,td{padding:.4rem .35rem}
    }
    @media (prefers-color-scheme:dark){
    nav.console,th,td,fieldset,div.tile,section.item{border-color:#3b424c}
    pre,aside.rules{background:#0e1114}
    div.tile .label{color:#9aa3ae}
    textarea,input[type=search]{background:#0e1114;color:#e4e7eb;border-color:#3b424c}
    .field-status.bad{color:#ffc2c2}
    .field-status.good{color:#b9f0c8}
    button.danger{background:#d0443a;border-color:#d0443a}
    }
    """#

    static let script = #"""
    // Signet console: checks redirect URIs as they are typed, by the server's rules (RedirectURI).
    (function () {
      "use strict";
      var box = document.getElementById("app-form");
      var area = document.getElementById("redirect-uris");
      var status = document.getElementById("redirect-status");
      if (!box || !area || !status) return;
      var group = document.getElementById("redirects");
      function type() { var c = document.querySelector("input[name=type]:checked"); return c ? c.value : (box.dataset.type || "native"); }
      var loopback = ["127.0.0.1", "[::1]"];
      function check(value) {
        if (value.length < 1 || value.length > 2048) return "must be 1 to 2048 characters";
        if (!/^[\x21-\x7e]+$/.test(value) || /["<>\\^`{|}]/.test(value)) return "must contain only printable ASCII characters without spaces";
        var colon = value.indexOf(":");
        if (colon < 0) return "must be an absolute URI with a scheme";
        var scheme = value.slice(0, colon);
        if (!/^[A-Za-z][A-Za-z0-9+.\-]*$/.test(scheme)) return "has an invalid scheme";
        scheme = scheme.toLowerCase();
        var rest = value.slice(colon + 1);
        if (rest.indexOf("#") >= 0) return "must not contain a fragment (RFC 6749 §3.1.2)";
        if (value.indexOf("*") >= 0) return "must not contain wildcards";
        var host = null;
        if (rest.slice(0, 2) === "//") {
          var after = rest.slice(2), end = after.search(/[\/?]/);
          var authority = end < 0 ? after : after.slice(0, end);
          var at = authority.lastIndexOf("@");
          if (at >= 0) return "must not contain user information ('@')";
          var port = null;
          if (authority.charAt(0) === "[") {
            var close = authority.indexOf("]");
            if (close < 0) return "has an unterminated IPv6 literal";
            host = authority.slice(0, close + 1).toLowerCase();
            var tail = authority.slice(close + 1);
            if (tail.charAt(0) === ":") port = tail.slice(1); else if (tail) return "has an invalid authority";
          } else {
            var pc = authority.lastIndexOf(":");
            if (pc >= 0) { host = authority.slice(0, pc).toLowerCase(); port = authority.slice(pc + 1); } else host = authority.toLowerCase();
          }
          if (port && !(/^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65535)) return "has an invalid port";
        }
        if (scheme === "https") { if (!host) return "an https URI needs a host"; return null; }
        if (scheme === "http") {
          if (loopback.indexOf(host) < 0) return "http is allowed only for the loopback IP literals 127.0.0.1 and [::1] (RFC 8252 §7.3)";
          return null;
        }
        var labels = scheme.split(".");
        if (labels.length < 2 || labels.some(function (l) { return !l; })) return "a private-use scheme must be a reverse domain name such as com.example.app (RFC 8252 §7.1)";
        if (host !== null && host !== "") return "a private-use scheme URI has the form com.example.app:/path, without an authority";
        if (type() !== "native") return box.dataset.privateConfidential;
        return null;
      }
      function update() {
        var takes = type() === "native" || type() === "web";
        if (group) group.hidden = !takes;
        document.querySelectorAll("[data-rules]").forEach(function (r) { r.hidden = r.dataset.rules !== type(); });
        var lines = area.value.split(/\r?\n/).map(function (l) { return l.trim(); }).filter(function (l) { return l; });
        var problem = null;
        if (!takes && lines.length) problem = "redirect_uris: " + box.dataset.none;
        for (var i = 0; i < lines.length && !problem && takes; i++) {
          var why = check(lines[i]);
          if (why) problem = "redirect_uris[" + i + "]: " + why;
          else if (lines.slice(0, i).indexOf(lines[i]) >= 0) problem = "redirect_uris[" + i + "]: is listed twice";
        }
        status.textContent = problem || (lines.length ? box.dataset.ok : "");
        status.className = "field-status " + (problem ? "bad" : lines.length ? "good" : "");
        area.setAttribute("aria-invalid", problem ? "true" : "false");
        area.setCustomValidity(problem || "");
      }
      area.addEventListener("input", update);
      document.querySelectorAll("input[name=type]").forEach(function (r) { r.addEventListener("change", update); });
      update();
    })();
    """#

    static let stylesheetBytes = Array(stylesheet.utf8)
    static let scriptBytes = Array(script.utf8)
    static let stylesheetPath = "/assets/console-" + hash(stylesheetBytes) + ".css"
    static let scriptPath = "/assets/console-" + hash(scriptBytes) + ".js"

    private static func hash(_ bytes: [UInt8]) -> String {
        Digest.sha256(bytes).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    static var scriptTag: String { "<script src=\"\(scriptPath)\" defer></script>" }

    static func stylesheetResponse() -> HTTPResponse { BrandAssets.asset(stylesheetBytes, type: "text/css; charset=utf-8") }
    static func scriptResponse() -> HTTPResponse { BrandAssets.asset(scriptBytes, type: "text/javascript; charset=utf-8") }

    /// Lets a page run the console script: `script-src 'self'` added to its CSP, nothing else.
    static func allowScript(_ response: inout HTTPResponse) {
        guard let csp = response.headers["Content-Security-Policy"] else { return }
        response.headers.set("Content-Security-Policy", csp.replacingOccurrences(of: "frame-ancestors 'none'",
                                                                                 with: "script-src 'self'; frame-ancestors 'none'"))
    }
}
