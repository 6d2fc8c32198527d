import Foundation
import SignetCrypto
import SignetHTTP

/// The one script Signet serves: passkey sign-in (a button and the email field's autofill, W3C
/// WebAuthn §5.1.4 with `mediation: "conditional"`) and passkey registration. It is a same-origin
/// file whose name carries its hash, so it is cached for a year and a page can allow it with
/// `script-src 'self'` and no inline script. Every page works without it; strings and endpoints
/// come from the `#passkeys` element's `data-` attributes.
enum PasskeyScript {
    static let source = #"""
    // Signet passkeys. Reads its endpoints and strings from #passkeys; the pages work without it.
    (function () {
      "use strict";
      var box = document.getElementById("passkeys");
      if (!box || !window.PublicKeyCredential || !PublicKeyCredential.parseRequestOptionsFromJSON) return;
      var data = box.dataset;
      var status = document.getElementById("passkey-status");
      function show(text) { if (status) { status.textContent = text; status.hidden = false; } }
      // A refusal's `message` is in the page's language; the developer's description is never shown.
      function post(url, body, type) {
        return fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": type }, body: body })
          .then(function (response) {
            return response.json().catch(function () { return {}; }).then(function (json) {
              if (!response.ok) { var error = new Error(json.message || data.failed); error.server = true; throw error; }
              return json;
            });
          });
      }
      function fields() {
        var pairs = { csrf: data.csrf };
        if (data.request) pairs.request = data.request;
        return new URLSearchParams(pairs).toString();
      }
      function failed(error) {
        if (error && error.name === "AbortError") return;
        show(error && error.server ? error.message : (error && error.name === "NotAllowedError" ? data.cancelled : data.failed));
      }
      var pending = null;
      function signIn(conditional) {
        if (pending) pending.abort();
        var controller = new AbortController();
        pending = controller;
        var picked = false;
        return post(data.options, fields(), "application/x-www-form-urlencoded").then(function (options) {
          var request = { publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options), signal: controller.signal };
          if (conditional) request.mediation = "conditional"; else show(data.working);
          return navigator.credentials.get(request);
        }).then(function (credential) {
          picked = true;
          return post(data.finish, JSON.stringify(credential.toJSON()), "application/json");
        }).then(function (done) { window.location.assign(done.location); }).catch(function (error) {
          // Autofill is an offer the person has not taken up: until they pick a passkey from it, a
          // failure (options refused, no authenticator) stays silent and the button still works.
          if (conditional && !picked) return;
          throw error;
        });
      }
      function register() {
        return post(data.options, fields(), "application/x-www-form-urlencoded").then(function (options) {
          show(data.working);
          return navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
        }).then(function (credential) {
          return post(data.finish, JSON.stringify(credential.toJSON()), "application/json");
        }).then(function () {
          show(data.done);
          var next = data.next && document.getElementById(data.next);
          if (next) next.submit(); else window.location.reload();
        });
      }
      var button = document.getElementById("passkey-button");
      if (button) {
        button.hidden = false;
        button.addEventListener("click", function () { (data.mode === "register" ? register() : signIn(false)).catch(failed); });
      }
      // Tells the password form (or, after a sign-up, the code form) that this browser could add
      // a passkey (the offer after sign-in or sign-up).
      var email = document.getElementById("email");
      var target = data.mode === "signin" ? (email && email.form) : (data.mode === "capable" && document.getElementById(data.form));
      if (target && PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable) {
        PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().then(function (available) {
          if (!available) return;
          var flag = document.createElement("input");
          flag.type = "hidden"; flag.name = "passkey_capable"; flag.value = "1";
          target.appendChild(flag);
        });
      }
      if (data.mode === "signin" && PublicKeyCredential.isConditionalMediationAvailable) {
        PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
          if (available) signIn(true).catch(failed);
        });
      }
    })();
    """#

    /// The script's bytes.
    static let bytes = Array(source.utf8)
    /// Its path: the first 16 hex digits of its SHA-256 in the name, so a new version is a new URL.
    static let path = "/assets/passkeys-" + Digest.sha256(bytes).prefix(8).map { String(format: "%02x", $0) }.joined() + ".js"

    /// The asset: long-cached, never sniffed.
    static func response() -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: bytes)
        response.headers.set("Content-Type", "text/javascript; charset=utf-8")
        response.headers.set("Cache-Control", "public, max-age=31536000, immutable")
        response.headers.set("X-Content-Type-Options", "nosniff")
        return response
    }

    /// The script tag for a page.
    static var tag: String { "<script src=\"\(path)\" defer></script>" }

    /// Lets a page run this script and call its endpoints: `script-src 'self'` and
    /// `connect-src 'self'` added to the page's CSP, and nothing else.
    static func allow(_ response: inout HTTPResponse) {
        guard let csp = response.headers["Content-Security-Policy"] else { return }
        response.headers.set("Content-Security-Policy", csp.replacingOccurrences(of: "frame-ancestors 'none'",
                                                                                 with: "script-src 'self'; connect-src 'self'; frame-ancestors 'none'"))
    }
}
