#!/usr/bin/env python3
"""Captures one real passkey registration and assertion from Chromium's WebDriver virtual
authenticator (CTAP2, internal transport, resident key, user verification) and writes
Tests/SignetWebAuthnTests/Vectors/chromium.json, which SignetWebAuthn's tests verify.

A tiny page is served by Python's http.server on 127.0.0.1 (an ephemeral port) and opened as
http://localhost:PORT/, a secure context, so the RP ID is "localhost". The options passed to
PublicKeyCredential.parseCreationOptionsFromJSON have the shape SignetWebAuthn's CreationOptions
writes; the responses are the browser's own toJSON().

    .build/pytools/bin/python scripts/testing/webauthn_browser_capture.py
"""
import base64
import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions


def b64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


PAGE = "<!doctype html><title>passkey capture</title><p>capture</p>"


def main():
    root = tempfile.mkdtemp()
    with open(os.path.join(root, "index.html"), "w") as handle:
        handle.write(PAGE)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    origin = f"http://localhost:{port}"

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--password-store=basic"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(origin + "/index.html")
        authenticator = VirtualAuthenticatorOptions()
        authenticator.protocol = Protocol.CTAP2
        authenticator.transport = Transport.INTERNAL
        authenticator.has_resident_key = True
        authenticator.has_user_verification = True
        authenticator.is_user_verified = True
        driver.add_virtual_authenticator(authenticator)

        user_id = os.urandom(16)
        create_challenge = os.urandom(32)
        creation = {
            "rp": {"id": "localhost", "name": "Signet"},
            "user": {"id": b64(user_id), "name": "ada@example.com", "displayName": "Ada"},
            "challenge": b64(create_challenge),
            "pubKeyCredParams": [{"type": "public-key", "alg": alg} for alg in (-7, -8, -257)],
            "timeout": 60000,
            "excludeCredentials": [],
            "authenticatorSelection": {"residentKey": "required", "requireResidentKey": True, "userVerification": "required"},
            "attestation": "none",
        }
        driver.set_script_timeout(30)
        registration = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const options = PublicKeyCredential.parseCreationOptionsFromJSON(arguments[0]);
            navigator.credentials.create({publicKey: options})
              .then(credential => done(JSON.stringify(credential.toJSON())))
              .catch(error => done("ERROR " + error));
        """, creation)
        if registration.startswith("ERROR"):
            raise SystemExit(registration)

        get_challenge = os.urandom(32)
        request = {"challenge": b64(get_challenge), "timeout": 60000, "rpId": "localhost", "allowCredentials": [],
                   "userVerification": "required"}
        assertion = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const options = PublicKeyCredential.parseRequestOptionsFromJSON(arguments[0]);
            navigator.credentials.get({publicKey: options})
              .then(credential => done(JSON.stringify(credential.toJSON())))
              .catch(error => done("ERROR " + error));
        """, request)
        if assertion.startswith("ERROR"):
            raise SystemExit(assertion)
        version = driver.capabilities.get("browserVersion", "")
    finally:
        driver.quit()
        server.shutdown()

    out = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "SignetWebAuthnTests", "Vectors", "chromium.json")
    with open(out, "w") as handle:
        json.dump({"generator": "scripts/testing/webauthn_browser_capture.py", "browser": "Chromium " + version,
                   "rpId": "localhost", "origin": origin, "userHandle": b64(user_id),
                   "createChallenge": b64(create_challenge), "getChallenge": b64(get_challenge),
                   "registration": json.loads(registration), "assertion": json.loads(assertion)}, handle, indent=1)
        handle.write("\n")
    print("captured from Chromium", version, "->", os.path.normpath(out), file=sys.stderr)


if __name__ == "__main__":
    main()
