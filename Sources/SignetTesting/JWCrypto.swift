import SignetJOSE

/// A third-party JOSE implementation, Python jwcrypto, as an independent verifier of what Signet
/// publishes and signs. One Python process per call; the interpreter is `PackagePaths.python`
/// (`$SIGNET_PYTHON`, set by `make test`). A missing jwcrypto is an error with instructions, never
/// a silent skip.
public enum JWCrypto {
    /// Verifies each token against a JWKS document (the exact bytes a relying party fetched),
    /// choosing the key by `kid` as jwcrypto does. With `checkClaims` false only the signature and
    /// header are checked; with true jwcrypto's default `exp`/`nbf` checks run against the wall clock.
    public static func verify(tokens: [String], jwks: [UInt8], algorithms: [String] = ["RS256", "PS256", "ES256", "EdDSA"],
                              checkClaims: Bool = false) async throws -> [JWCryptoResult] {
        try RealPart.jwcrypto.use()
        let jwksValue: JSONValue
        do { jwksValue = try JSONValue.parse(jwks) } catch { throw TestingError("the JWKS is not JSON: \(error)") }
        let request: JSONValue = ["jwks": jwksValue, "tokens": .array(tokens.map(JSONValue.string)),
                                  "algs": .array(algorithms.map(JSONValue.string)), "check_claims": .bool(checkClaims)]
        let python = PackagePaths.python
        let result = try await Subprocess.run(python, ["-c", script], stdin: request.serialized(), timeoutSeconds: 60)
        guard result.succeeded else {
            let hint = result.status == 3
                ? " Install it: python3 -m venv .build/pytools && .build/pytools/bin/pip install jwcrypto==1.5.6, then export SIGNET_PYTHON=$PWD/.build/pytools/bin/python (make test does this)."
                : ""
            throw TestingError("jwcrypto (\(python)) failed: \(result.stderr)\(hint)")
        }
        guard let response = try? JSONValue.parse(result.stdoutBytes), let list = response["results"]?.arrayValue else {
            throw TestingError("jwcrypto printed something unexpected: \(result.stdout.prefix(300))")
        }
        return list.map { item in
            JWCryptoResult(ok: item["ok"]?.boolValue ?? false, header: item["header"], claims: item["claims"],
                           error: item["error"]?.stringValue)
        }
    }

    static let script = """
    import json, sys
    try:
        from jwcrypto import jwk, jwt
    except ImportError as exc:
        sys.stderr.write("jwcrypto is not installed for %s: %s\\n" % (sys.executable, exc))
        sys.exit(3)
    request = json.load(sys.stdin)
    keyset = jwk.JWKSet.from_json(json.dumps(request["jwks"]))
    results = []
    for token in request["tokens"]:
        result = {"ok": False}
        try:
            options = {} if request["check_claims"] else {"check_claims": False}
            parsed = jwt.JWT(jwt=token, key=keyset, algs=request["algs"], **options)
            result = {"ok": True, "header": json.loads(parsed.header), "claims": json.loads(parsed.claims)}
        except Exception as exc:
            result["error"] = "%s: %s" % (type(exc).__name__, exc)
        results.append(result)
    json.dump({"results": results}, sys.stdout)
    """
}
