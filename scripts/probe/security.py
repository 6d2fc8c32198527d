#!/usr/bin/env python3
"""The defects of the security review, tried again from outside against a running Signet.

Usage: security.py ISSUER DATA_DIR SIGNET_BINARY SERVER_PID
The server must run `signet serve --demo` (the mock Google is the upstream) with
`http.trusted_proxies` naming 127.0.0.1, as ProbeTests starts it. Users and clients are made with
the CLI. Each check prints PASS or FAIL; figures (server CPU, RSS) are printed as INFO and never
checked against a time. Exits non-zero when any check fails.
"""
import base64, hashlib, json, os, secrets, subprocess, sys, time
import urllib.parse
from probe_http import Browser, b64url, form_fields

ISSUER, DATA, SIGNET, PID = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ORIGIN = urllib.parse.urlsplit(ISSUER)
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else f"  [{str(detail)[:300]}]"), flush=True)


def info(text):
    print("INFO " + text, flush=True)


def jwt_claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def cli(*args, stdin=None):
    p = subprocess.run([SIGNET, *args, "--data", DATA], input=stdin, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def cpu_seconds():
    fields = open(f"/proc/{PID}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib():
    for line in open(f"/proc/{PID}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pkce():
    verifier = b64url(secrets.token_bytes(32))
    return verifier, b64url(hashlib.sha256(verifier.encode()).digest())


def query_of(location):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))


def authorize_url(client, redirect, challenge, extra=None, scope="openid profile email offline_access"):
    q = {"client_id": client, "response_type": "code", "redirect_uri": redirect, "scope": scope,
         "state": b64url(secrets.token_bytes(9)), "nonce": b64url(secrets.token_bytes(9)),
         "code_challenge": challenge, "code_challenge_method": "S256"}
    q.update(extra or {})
    return ISSUER + "/authorize?" + urllib.parse.urlencode(q)


def sign_in(browser, url, email, password, consent=True):
    """Follows an authorization request through the sign-in (and consent) pages; returns the
    final redirect's Location (the app's redirect URI) or None, and the last status."""
    s, h, body = browser.request(url)
    for _ in range(6):
        if s in (302, 303):
            loc = urllib.parse.urljoin(ISSUER, h["Location"])
            if not loc.startswith(ISSUER):
                return loc, s
            s, h, body = browser.request(loc)
            continue
        if s != 200:
            return None, s
        action, fields = form_fields(body.decode())
        if action is None:
            return None, s
        if "password" in fields:
            fields.update({"email": email, "password": password})
        elif consent:
            fields["decision"] = "allow"
        else:
            return None, s
        s, h, body = browser.request(urllib.parse.urljoin(ISSUER, action), data=fields)
    return None, s


def token(data, headers=None):
    s, h, body = Browser().request(ISSUER + "/token", data=data, headers=headers)
    try:
        return s, json.loads(body)
    except ValueError:
        return s, {}


# -- set-up through the CLI ---------------------------------------------------------------------
alice, bob = f"alice-{secrets.token_hex(3)}@example.com", f"bob-{secrets.token_hex(3)}@example.com"
password = "correct horse battery staple"
for who in (alice, bob):
    rc, out = cli("users", "add", who, "--password-stdin", stdin=password + "\n")
    check(f"cli: users add {who.split('-')[0]}", rc == 0, out)
first = "probe-first"
rc, out = cli("clients", "add", first, "--public", "--first-party", "--allow-headless",
              "--redirect-uri", "com.example.probe:/cb", "--redirect-uri", "http://127.0.0.1/callback",
              "--scope", "openid profile email offline_access", "--resource", "https://api.example")
check("cli: clients add (first-party, headless, resource allow-list)", rc == 0, out)
third = "probe-third"
rc, out = cli("clients", "add", third, "--public", "--redirect-uri", "http://127.0.0.1/callback",
              "--scope", "openid profile email")
check("cli: clients add (third-party, loopback)", rc == 0, out)
time.sleep(1.2)   # a running server picks up new clients within a second

# -- 1. a headless provider callback opened in another browser signs nothing in -------------------
verifier, challenge = pkce()
attacker = Browser()
s, h, body = attacker.request(ISSUER + "/headless/start", data={
    "client_id": first, "redirect_uri": "com.example.probe:/cb", "response_type": "code", "scope": "openid email",
    "state": "st", "code_challenge": challenge, "code_challenge_method": "S256"})
start = json.loads(body) if s == 200 else {}
check("headless: start", s == 200 and "requestId" in start, body[:200])
s, h, body = attacker.request(ISSUER + "/headless/provider/start",
                              data={"requestId": start.get("requestId", ""), "connection": "google-demo"})
url = json.loads(body).get("authorizationUrl") if s == 200 else None
check("headless: provider start gives an authorization URL", url, body[:200])
callback = None
for _ in range(6):   # the attacker's browser follows the provider leg up to Signet's callback
    if not url:
        break
    s, h, body = attacker.request(url)
    if s not in (302, 303):
        break
    url = urllib.parse.urljoin(url, h["Location"])
    if url.startswith(ISSUER + "/oauth2/callback"):
        callback = url
        break
check("headless: the provider leg reaches Signet's callback", callback, f"{s} {url}")
victim = Browser()
s, h, body = victim.request(callback or ISSUER + "/oauth2/callback/google-demo")
location = h.get("Location") or ""
check("headless: the victim's browser gets no code from the attacker's callback", "code=" not in location, location)
check("headless: the victim's browser gets no session and no link cookie",
      not any("session" in n or "link" in n for n in victim.cookie_names()), victim.cookie_names())
s, h, _ = attacker.request(callback or ISSUER + "/oauth2/callback/google-demo")
check("headless: the browser that started the provider leg still completes it with a code",
      (h.get("Location") or "").startswith("com.example.probe:/cb?code="), f"{s} {h.get('Location')}")
_, silent = pkce()
s, h, _ = victim.request(authorize_url(first, "http://127.0.0.1:5000/callback", silent, {"prompt": "none"}))
check("headless: prompt=none in the victim's browser is login_required",
      s in (302, 303) and query_of(h.get("Location", "")).get("error") == "login_required", h.get("Location"))

# -- 2. repeated parameters cost linear time ---------------------------------------------------------
names = [f"p{i:05d}" for i in range(60_000)]
body = ("&".join(f"{n}=&{n}=" for n in names) + "&state=a&state=b").encode()
before = cpu_seconds()
s, h, reply = Browser().request(ISSUER + "/logout", data=body,
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
spent = cpu_seconds() - before
check("params: 60,000 names sent twice (and state twice) to /logout are refused with 400", s == 400, f"{s} {reply[:120]}")
info(f"params: {len(body):,} bytes of repeated names cost {spent:.2f} s of server CPU")

# -- 3. unknown client ids are not remembered without bound ---------------------------------------------
rss0 = rss_kib()
statuses = set()
for _ in range(400):
    s, reply = token({"grant_type": "client_credentials", "client_id": secrets.token_urlsafe(75_000)})
    statuses.add((s, reply.get("error")))
rss1 = rss_kib()
check("client ids: 400 distinct 100 KB ids are refused with an OAuth error",
      all(s in (400, 401) and e in ("invalid_client", "invalid_request") for s, e in statuses), statuses)
info(f"client ids: RSS {rss0 // 1024} MiB before, {rss1 // 1024} MiB after 400 distinct 100 KB ids")
check("client ids: 400 distinct 100 KB ids grow the server by less than 16 MiB (39 MiB before the fix)",
      rss1 - rss0 < 16 * 1024, f"{(rss1 - rss0) // 1024} MiB")

# -- 4. a refresh keeps the RFC 8707 resource ------------------------------------------------------------
carol = Browser()
verifier, challenge = pkce()
location, status = sign_in(carol, authorize_url(first, "http://127.0.0.1:5000/callback", challenge,
                                                {"resource": "https://api.example"}), alice, password)
code = query_of(location or "").get("code")
check("resource: sign-in with resource=https://api.example gives a code", code, f"{status} {location}")
s, tokens = token({"grant_type": "authorization_code", "code": code or "", "client_id": first,
                   "redirect_uri": "http://127.0.0.1:5000/callback", "code_verifier": verifier,
                   "resource": "https://api.example"})
aud = jwt_claims(tokens["access_token"]).get("aud") if s == 200 else None
check("resource: the first access token is for the API", s == 200 and "https://api.example" in (aud or []), tokens)
s, renewed = token({"grant_type": "refresh_token", "refresh_token": tokens.get("refresh_token", ""), "client_id": first})
aud = jwt_claims(renewed["access_token"]).get("aud") if s == 200 else None
check("resource: after a refresh the access token is still for the API",
      s == 200 and "https://api.example" in ([aud] if isinstance(aud, str) else aud or []), renewed)
s, wider = token({"grant_type": "refresh_token", "refresh_token": renewed.get("refresh_token", ""), "client_id": first,
                  "resource": "https://other.example"})
check("resource: a refresh cannot widen the resources (invalid_target)", s == 400 and wider.get("error") == "invalid_target", wider)

# -- 6. loopback clients are asked for consent every time (RFC 8252 §8.6) --------------------------------------
dave = Browser()
_, challenge = pkce()
location, status = sign_in(dave, authorize_url(third, "http://127.0.0.1:5001/callback", challenge, scope="openid email"),
                           bob, password)
check("loopback consent: the first sign-in with consent gives a code", "code=" in (location or ""), f"{status} {location}")
_, challenge = pkce()
s, h, _ = dave.request(authorize_url(third, "http://127.0.0.1:5001/callback", challenge, {"prompt": "none"}, scope="openid email"))
check("loopback consent: prompt=none after consent is consent_required",
      s in (302, 303) and query_of(h.get("Location", "")).get("error") == "consent_required", h.get("Location"))

# -- 7. many failed sign-ins behind a proxy lock nobody else out ------------------------------------------------
mallory = Browser(forwarded_for="203.0.113.5")
for _ in range(32):
    sign_in(mallory, authorize_url(first, "http://127.0.0.1:5002/callback", pkce()[1]), alice, "wrong password")
for name, email, address in (("another user", bob, "198.51.100.7"), ("the targeted user", alice, "198.51.100.8")):
    location, status = sign_in(Browser(forwarded_for=address),
                               authorize_url(first, "http://127.0.0.1:5002/callback", pkce()[1]), email, password)
    check(f"throttling: after 32 failures from one client address, {name} from another signs in",
          "code=" in (location or ""), f"{status} {location}")

failed = results.count(False)
print(f"{len(results) - failed} checks passed, {failed} failed")
sys.exit(1 if failed else 0)
