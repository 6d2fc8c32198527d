#!/usr/bin/env python3
"""Interop helper for SignetJOSETests: runs the third-party library jwcrypto.

Reads one JSON request on stdin and writes one JSON response on stdout:

  request:  {"verify": [{"alg", "jwk", "token"}...],   # Signet-signed tokens for jwcrypto to check
             "sign":   [{"alg", "kid", "claims"}...]}  # jwcrypto generates a key and signs claims
  response: {"jwcrypto": version,
             "verified": [{"alg", "ok", "claims", "header", "error"}...],
             "signed":   [{"alg", "jwk", "token"}...]}  # jwk is the public JWK jwcrypto exported

Exit status 3 with a message on stderr if jwcrypto is not installed.
"""
import json
import sys

try:
    from importlib.metadata import version
    from jwcrypto import jwk, jwt
except ImportError as exc:  # pragma: no cover - reported to the Swift test
    sys.stderr.write("jwcrypto is not installed for %s: %s\n" % (sys.executable, exc))
    sys.exit(3)

KEY_PARAMS = {
    "RS256": {"kty": "RSA", "size": 2048},
    "PS256": {"kty": "RSA", "size": 2048},
    "ES256": {"kty": "EC", "crv": "P-256"},
    "EdDSA": {"kty": "OKP", "crv": "Ed25519"},
}


def verify(item):
    result = {"alg": item["alg"], "ok": False}
    try:
        key = jwk.JWK(**item["jwk"])
        token = jwt.JWT(jwt=item["token"], key=key, algs=[item["alg"]])
        result["ok"] = True
        result["claims"] = json.loads(token.claims)
        result["header"] = json.loads(token.header)
    except Exception as exc:  # report, do not crash: the Swift side asserts
        result["error"] = "%s: %s" % (type(exc).__name__, exc)
    return result


def sign(item):
    key = jwk.JWK.generate(kid=item["kid"], **KEY_PARAMS[item["alg"]])
    header = {"alg": item["alg"], "kid": item["kid"], "typ": "JWT"}
    token = jwt.JWT(header=header, claims=item["claims"])
    token.make_signed_token(key)
    return {"alg": item["alg"], "jwk": json.loads(key.export_public()), "token": token.serialize()}


def main():
    request = json.load(sys.stdin)
    response = {
        "jwcrypto": version("jwcrypto"),
        "verified": [verify(item) for item in request.get("verify", [])],
        "signed": [sign(item) for item in request.get("sign", [])],
    }
    json.dump(response, sys.stdout)


if __name__ == "__main__":
    main()
