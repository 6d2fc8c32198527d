#!/usr/bin/env python3
"""A discovery-driven black-box probe of a running Signet, as a new user would try it.

Usage: conformance.py ISSUER DATA_DIR SIGNET_BINARY
It creates a user and clients with the CLI, then drives the standard OpenID Connect flows over
HTTP with a cookie-keeping client that never follows redirects. Needs jwcrypto.
Prints one line per check and exits non-zero when any check fails.
"""
import base64, hashlib, http.cookiejar, json, os, re, secrets, subprocess, sys, threading, time
import urllib.error, urllib.parse, urllib.request
from jwcrypto import jwk, jws
from probe_http import Browser, b64url, form_fields

ISSUER, DATA, SIGNET = sys.argv[1], sys.argv[2], sys.argv[3]
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok)))
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f"  [{detail}]"))


def cli(*args, stdin=None):
    p = subprocess.run([SIGNET, *args, "--data", DATA], input=stdin, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


# -- set-up through the CLI, as a new user would ---------------------------------------------
email, password = f"probe-{secrets.token_hex(4)}@example.com", "correct horse battery staple"
rc, out, err = cli("users", "add", email, "--password-stdin", stdin=password + "\n")
check("cli: users add", rc == 0, err)
native = f"probe-native-{secrets.token_hex(3)}"
rc, out, err = cli("clients", "add", native, "--public", "--first-party",
                   "--redirect-uri", "http://127.0.0.1/callback", "--redirect-uri", "com.example.probe:/cb",
                   "--post-logout-redirect-uri", "com.example.probe:/logged-out",
                   "--scope", "openid profile email offline_access")
check("cli: clients add (public)", rc == 0, err)
conf = f"probe-conf-{secrets.token_hex(3)}"
rc, out, err = cli("clients", "add", conf, "--confidential", "--redirect-uri", "https://rp.example.com/cb",
                   "--grant-type", "client_credentials", "--grant-type", "authorization_code",
                   "--scope", "openid api.read")
secret = re.search(r"(sgcs_[A-Za-z0-9_-]+)", out + err)
check("cli: clients add (confidential) shows the secret once", rc == 0 and secret, out + err)
secret = secret.group(1) if secret else ""
time.sleep(1.2)   # clients are picked up by a running server within a second

# -- discovery ----------------------------------------------------------------------------------
b = Browser()
s, h, body = b.request(ISSUER + "/.well-known/openid-configuration")
meta = json.loads(body) if s == 200 else {}
check("discovery: 200 and issuer matches", s == 200 and meta.get("issuer") == ISSUER, meta.get("issuer"))
for field in ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "revocation_endpoint",
              "introspection_endpoint", "end_session_endpoint"]:
    check(f"discovery: {field}", isinstance(meta.get(field), str) and meta[field].startswith(ISSUER), meta.get(field))
check("discovery: S256 only", meta.get("code_challenge_methods_supported") == ["S256"], meta.get("code_challenge_methods_supported"))
check("discovery: RFC 9207 iss parameter", meta.get("authorization_response_iss_parameter_supported") is True)
check("discovery: RS256 id tokens", "RS256" in meta.get("id_token_signing_alg_values_supported", []))
s, h, body = b.request(meta.get("jwks_uri", ISSUER + "/jwks.json"))
keys = jwk.JWKSet.from_json(body)
check("jwks: parses, no private keys", s == 200 and all(not k.has_private for k in keys["keys"]))

A, T, U = meta.get("authorization_endpoint"), meta.get("token_endpoint"), meta.get("userinfo_endpoint")


def verify_jwt(token, typ):
    obj = jws.JWS()
    obj.deserialize(token)
    header = obj.jose_header
    key = keys.get_key(header.get("kid"))
    obj.verify(key, alg=key.get("alg") if hasattr(key, "get") else header["alg"])
    return header, json.loads(obj.payload)


def authorize(browser, client, redirect, scope="openid profile email offline_access", extra=None, sign_in=True):
    verifier = b64url(secrets.token_bytes(32))
    state, nonce = b64url(secrets.token_bytes(12)), b64url(secrets.token_bytes(12))
    q = {"client_id": client, "response_type": "code", "redirect_uri": redirect, "scope": scope, "state": state,
         "nonce": nonce, "code_challenge": b64url(hashlib.sha256(verifier.encode()).digest()), "code_challenge_method": "S256"}
    q.update(extra or {})
    s, h, body = browser.request(A + "?" + urllib.parse.urlencode(q))
    pages = []
    for _ in range(6):
        loc = h.get("Location") if s in (302, 303) else None
        if loc is None:
            if s == 200 and sign_in:
                html = body.decode()
                pages.append((h, html))
                action, fields = form_fields(html)
                if "password" in fields or 'name="password"' in html:
                    fields.update({"email": email, "password": password})
                s, h, body = browser.request(urllib.parse.urljoin(ISSUER + "/", action), fields)
                continue
            return None, state, nonce, verifier, (s, h, body), pages
        if loc.startswith(ISSUER) or loc.startswith("/"):
            s, h, body = browser.request(urllib.parse.urljoin(ISSUER + "/", loc))
            continue
        return loc, state, nonce, verifier, (s, h, body), pages
    return None, state, nonce, verifier, (s, h, body), pages


redirect = "http://127.0.0.1:53117/callback"
loc, state, nonce, verifier, last, pages = authorize(b, native, redirect)
params = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(loc).query)) if loc else {}
check("authorize: code at loopback redirect (any port)", loc and loc.startswith(redirect) and "code" in params, loc)
check("authorize: state returned exactly", params.get("state") == state)
check("authorize: iss in response (RFC 9207)", params.get("iss") == ISSUER)
if pages:
    ph = pages[0][0]
    check("page: frame hardening", ph.get("X-Frame-Options", "").upper() == "DENY" or "frame-ancestors 'none'" in ph.get("Content-Security-Policy", ""))
    check("page: no-store", "no-store" in ph.get("Cache-Control", ""))
session_cookies = [c for c in b.jar if "session" in c.name]
check("cookie: session cookie is HttpOnly and SameSite", session_cookies and all(
    c.has_nonstandard_attr("HttpOnly") and (c.get_nonstandard_attr("SameSite") or "").lower() in ("lax", "strict") for c in session_cookies))

tok = {"grant_type": "authorization_code", "client_id": native, "redirect_uri": redirect, "code": params.get("code", ""),
       "code_verifier": verifier}
s, h, body = b.request(T, tok)
tokens = json.loads(body) if s == 200 else {}
check("token: 200 with Bearer tokens", s == 200 and tokens.get("token_type") == "Bearer" and "refresh_token" in tokens, body[:200])
check("token: Cache-Control no-store", "no-store" in h.get("Cache-Control", ""))
try:
    header, claims = verify_jwt(tokens["id_token"], "JWT")
    check("id_token: signature via JWKS", True)
    check("id_token: iss/aud/azp", claims["iss"] == ISSUER and claims["aud"] in (native, [native]) and claims.get("azp", native) == native)
    check("id_token: exp/iat", claims["exp"] > time.time() > claims["iat"] - 60)
    check("id_token: nonce", claims.get("nonce") == nonce)
    at_hash = b64url(hashlib.sha256(tokens["access_token"].encode()).digest()[:16])
    check("id_token: at_hash", claims.get("at_hash") == at_hash)
    check("id_token: RS256 by default", header["alg"] == "RS256")
    sub = claims["sub"]
except Exception as e:
    check("id_token: verifies", False, repr(e))
    sub = None
try:
    aheader, aclaims = verify_jwt(tokens["access_token"], "at+jwt")
    check("access_token: RFC 9068 typ at+jwt", aheader.get("typ") == "at+jwt")
    check("access_token: claims", aclaims.get("client_id") == native and aclaims.get("sub") == sub and "jti" in aclaims)
except Exception as e:
    check("access_token: verifies", False, repr(e))

s, h, body = b.request(U, headers={"Authorization": "Bearer " + tokens.get("access_token", "")})
ui = json.loads(body) if s == 200 else {}
check("userinfo: sub matches the ID token", s == 200 and ui.get("sub") == sub, body[:200])
check("userinfo: email by scope", ui.get("email") == email)
s, h, body = b.request(U)
check("userinfo: no token -> 401 + WWW-Authenticate Bearer", s == 401 and h.get("WWW-Authenticate", "").startswith("Bearer"))
s, h, body = b.request(U, headers={"Authorization": "Bearer not.a.token"})
check("userinfo: bad token -> invalid_token", s == 401 and "invalid_token" in h.get("WWW-Authenticate", ""))

# code reuse
s, h, body = b.request(T, tok)
check("token: code reuse -> invalid_grant", s == 400 and json.loads(body).get("error") == "invalid_grant", body[:200])
s, h, body = b.request(T, {"grant_type": "refresh_token", "client_id": native, "refresh_token": tokens.get("refresh_token", "")})
check("token: code reuse revoked the tokens issued from it", s == 400 and json.loads(body).get("error") == "invalid_grant", body[:200])

# second sign-in from the same browser: no password page
loc2, state2, nonce2, verifier2, last2, pages2 = authorize(b, native, redirect, sign_in=False)
check("sso: second authorize needs no password", loc2 is not None and "code=" in loc2, last2[0])
p2 = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(loc2 or "").query))
s, h, body = b.request(T, {"grant_type": "authorization_code", "client_id": native, "redirect_uri": redirect,
                            "code": p2.get("code", ""), "code_verifier": verifier2})
t2 = json.loads(body) if s == 200 else {}

# refresh rotation, concurrency, reuse
r1 = t2.get("refresh_token", "")
s, h, body = b.request(T, {"grant_type": "refresh_token", "client_id": native, "refresh_token": r1})
r2 = json.loads(body).get("refresh_token") if s == 200 else None
check("refresh: rotates", s == 200 and r2 and r2 != r1, body[:200])
out = []
def refresh(tokenv):
    out.append(Browser().request(T, {"grant_type": "refresh_token", "client_id": native, "refresh_token": tokenv}))
threads = [threading.Thread(target=refresh, args=(r2,)) for _ in range(8)]
[t.start() for t in threads]; [t.join() for t in threads]
successors = {json.loads(b_)["refresh_token"] for s_, h_, b_ in out if s_ == 200}
check("refresh: concurrent refreshes give one successor", len(successors) == 1 and all(s_ in (200, 400) for s_, _, _ in out), [s_ for s_, _, _ in out])
r3 = successors.pop() if successors else ""
s, h, body = b.request(T, {"grant_type": "refresh_token", "client_id": native, "refresh_token": r1})
check("refresh: reuse of an older token -> invalid_grant", s == 400 and json.loads(body).get("error") == "invalid_grant")
s, h, body = b.request(T, {"grant_type": "refresh_token", "client_id": native, "refresh_token": r3})
check("refresh: reuse revoked the family", s == 400 and json.loads(body).get("error") == "invalid_grant", body[:120])

# revocation
loc3, _, _, v3, _, _ = authorize(b, native, redirect, sign_in=False)
p3 = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(loc3 or "").query))
s, h, body = b.request(T, {"grant_type": "authorization_code", "client_id": native, "redirect_uri": redirect,
                            "code": p3.get("code", ""), "code_verifier": v3})
t3 = json.loads(body) if s == 200 else {}
s, h, body = b.request(meta.get("revocation_endpoint"), {"token": t3.get("refresh_token", ""), "client_id": native})
check("revoke: 200", s == 200)
s, h, body = b.request(T, {"grant_type": "refresh_token", "client_id": native, "refresh_token": t3.get("refresh_token", "")})
check("revoke: revoked refresh token fails", s == 400)
s, h, body = b.request(meta.get("revocation_endpoint"), {"token": "unknown", "client_id": native})
check("revoke: unknown token -> 200", s == 200)

# bad inputs at /authorize
def auth_raw(q):
    return Browser().request(A + "?" + urllib.parse.urlencode(q))
base = {"client_id": native, "response_type": "code", "scope": "openid", "state": "st",
        "code_challenge": b64url(hashlib.sha256(b"x" * 43).digest()), "code_challenge_method": "S256"}
for variant in ["http://127.0.0.1:53117/callback/", "http://127.0.0.1:53117/Callback", "http://127.0.0.1:53117/callback?x=1",
                "http://evil.example/callback", "http://127.0.0.1@evil.example/callback", "com.example.probe:/cb#x",
                "http://localhost:53117/callback", "com.example.probe:/%63b"]:
    s, h, body = auth_raw({**base, "redirect_uri": variant})
    check(f"authorize: redirect variant refused without redirect ({variant})", s == 400 and not h.get("Location"), s)
s, h, body = auth_raw({**base, "redirect_uri": redirect, "code_challenge_method": "plain"})
q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(h.get("Location", "")).query))
check("authorize: plain PKCE refused at the redirect with iss", q.get("error") == "invalid_request" and q.get("iss") == ISSUER and q.get("state") == "st")
s, h, body = auth_raw({k: v for k, v in base.items() if not k.startswith("code_")} | {"redirect_uri": redirect})
q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(h.get("Location", "")).query))
check("authorize: missing PKCE refused", q.get("error") == "invalid_request")
s, h, body = auth_raw({**base, "redirect_uri": redirect, "response_type": "token"})
q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(h.get("Location", "")).query))
check("authorize: unsupported_response_type", q.get("error") == "unsupported_response_type" and q.get("iss") == ISSUER)
s, h, body = auth_raw({**base, "redirect_uri": redirect, "prompt": "none"})
q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(h.get("Location", "")).query))
check("authorize: prompt=none without session -> login_required", q.get("error") == "login_required" and q.get("iss") == ISSUER)
s, h, body = Browser().request(A + "?" + urllib.parse.urlencode(list(base.items()) + [("redirect_uri", redirect), ("scope", "openid")]))
q = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(h.get("Location", "")).query))
check("authorize: repeated parameter -> invalid_request", q.get("error") == "invalid_request")
s, h, body = auth_raw({**base, "redirect_uri": redirect, "state": "<script>alert(1)</script>", "client_id": "<script>x</script>"})
check("authorize: script payloads not reflected", b"<script>" not in body)

# token endpoint errors
s, h, body = Browser().request(T, {"grant_type": "client_credentials"}, headers={
    "Authorization": "Basic " + base64.b64encode(f"{conf}:wrong".encode()).decode()})
check("token: invalid_client -> 401 + WWW-Authenticate", s == 401 and h.get("WWW-Authenticate") and json.loads(body).get("error") == "invalid_client")
s, h, body = Browser().request(T, {"grant_type": "client_credentials", "scope": "api.read"}, headers={
    "Authorization": "Basic " + base64.b64encode(f"{conf}:{secret}".encode()).decode()})
check("token: client_credentials", s == 200 and "access_token" in json.loads(body), body[:200])
cc = json.loads(body).get("access_token", "") if s == 200 else ""
s, h, body = Browser().request(meta.get("introspection_endpoint"), {"token": cc}, headers={
    "Authorization": "Basic " + base64.b64encode(f"{conf}:{secret}".encode()).decode()})
check("introspect: active token", s == 200 and json.loads(body).get("active") is True, body[:200])
s, h, body = Browser().request(meta.get("introspection_endpoint"), {"token": "nonsense"}, headers={
    "Authorization": "Basic " + base64.b64encode(f"{conf}:{secret}".encode()).decode()})
check("introspect: unknown -> active false", s == 200 and json.loads(body) == {"active": False}, body[:200])
s, h, body = Browser().request(T, {"grant_type": "password", "client_id": native})
check("token: unsupported_grant_type", s == 400 and json.loads(body).get("error") == "unsupported_grant_type")
s, h, body = Browser().request(T, {"client_id": native})
check("token: missing grant_type -> invalid_request", s == 400 and json.loads(body).get("error") == "invalid_request")

# logout
s, h, body = b.request(meta.get("end_session_endpoint") + "?" + urllib.parse.urlencode({
    "id_token_hint": t2.get("id_token", ""), "post_logout_redirect_uri": "com.example.probe:/logged-out", "state": "bye"}))
check("logout: redirects to the registered URI with state", s in (302, 303) and h.get("Location", "").startswith("com.example.probe:/logged-out") and "state=bye" in h.get("Location", ""), (s, h.get("Location")))
loc4, *_ = authorize(b, native, redirect, sign_in=False)
check("logout: the session is gone", loc4 is None)
s, h, body = Browser().request(meta.get("end_session_endpoint") + "?" + urllib.parse.urlencode({
    "id_token_hint": t2.get("id_token", ""), "post_logout_redirect_uri": "https://evil.example/"}))
check("logout: unregistered post-logout URI not redirected", not h.get("Location"))

failed = [n for n, ok in results if not ok]
print(f"\n{len(results) - len(failed)} of {len(results)} checks passed")
sys.exit(1 if failed else 0)
