import Foundation
import Testing
import SignetCrypto
import SignetTesting
@testable import SignetJOSE

/// Interop with a third-party JOSE implementation, Python `jwcrypto`, in both directions for every
/// algorithm: jwcrypto verifies JWTs Signet signed (with the JWK Signet exported), and Signet
/// verifies JWTs jwcrypto signed (with the JWK jwcrypto exported). One Python process serves all
/// algorithms. The interpreter is `$SIGNET_PYTHON` (set by `make test`), else `python3` on PATH;
/// if jwcrypto is missing the tests FAIL with instructions rather than skip.
@Suite(.endToEndLimit) struct InteropTests {
    struct SignedBySignet: Sendable {
        let algorithm: SignatureAlgorithm
        let token: String
        let jwk: JWK
    }

    struct Exchange: Sendable {
        let signedBySignet: [SignedBySignet]
        let response: [String: JSONValue]
        let startedAt: Date
    }

    static let pythonIssuer = "https://jwcrypto.example"

    /// Runs the whole exchange once per test process.
    static let exchange: Result<Exchange, InteropFailure> = runExchange()

    struct InteropFailure: Error, CustomStringConvertible {
        let description: String
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func jwcryptoVerifiesSignetTokens(_ algorithm: SignatureAlgorithm) throws {
        let exchange = try Self.exchange.get()
        let verified = try #require(exchange.response["verified"]?.arrayValue)
        let result = try #require(verified.first { $0["alg"]?.stringValue == algorithm.rawValue })
        #expect(result["ok"] == .bool(true), "jwcrypto rejected Signet's \(algorithm.rawValue) token: \(result["error"]?.stringValue ?? "?")")
        #expect(result["claims"]?["sub"] == "signet-user")
        #expect(result["claims"]?["nonce"] == .string("nonce-\(algorithm.rawValue)"))
        #expect(result["header"]?["kid"] == .string("signet-\(algorithm.rawValue)"))
        #expect(result["header"]?["alg"] == .string(algorithm.rawValue))
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func signetVerifiesJwcryptoTokens(_ algorithm: SignatureAlgorithm) throws {
        let exchange = try Self.exchange.get()
        let signed = try #require(exchange.response["signed"]?.arrayValue)
        let entry = try #require(signed.first { $0["alg"]?.stringValue == algorithm.rawValue })
        let token = try #require(entry["token"]?.stringValue)
        let jwk = try JWK(json: #require(entry["jwk"]))
        #expect(jwk.kid == "py-\(algorithm.rawValue)")
        // The relying party pins the algorithm it expects for this key.
        let key = try VerificationKey(keyID: #require(jwk.kid), algorithm: algorithm, publicKey: jwk.publicKey())
        let verifier = try JWTVerifier(keys: [key], policy: VerificationPolicy(
            issuer: Self.pythonIssuer, audience: "signet", allowedTypes: ["JWT"], clock: { exchange.startedAt }))
        let verified = try verifier.verify(token)
        #expect(verified.claims.sub == "py-user")
        #expect(verified.claims.nonce == "nonce-\(algorithm.rawValue)")
        #expect(verified.algorithm == algorithm)
        // And a tampered copy is refused.
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"aud":"signet","exp":9999999999,"iss":"https://jwcrypto.example","sub":"admin"}"#.utf8))
        #expect(throws: JOSEError.badSignature) { try verifier.verify(parts.joined(separator: ".")) }
    }

    // MARK: Process plumbing

    static func runExchange() -> Result<Exchange, InteropFailure> {
        do {
            return .success(try exchangeWithPython())
        } catch let failure as InteropFailure {
            return .failure(failure)
        } catch {
            return .failure(InteropFailure(description: "interop set-up failed: \(error)"))
        }
    }

    static func exchangeWithPython() throws -> Exchange {
        let now = Date()
        let iat = Int64(now.timeIntervalSince1970)
        var signedBySignet: [SignedBySignet] = []
        var verifyRequests: [JSONValue] = []
        var signRequests: [JSONValue] = []
        for algorithm in SignatureAlgorithm.allCases {
            guard let key = TestKeys.key(for: algorithm) else {
                throw InteropFailure(description: "key generation failed for \(algorithm.rawValue)")
            }
            let signer = try JWSSigner(key: key, keyID: "signet-\(algorithm.rawValue)", algorithm: algorithm)
            var claims = JWTClaims()
            claims.iss = "https://signet.example"
            claims.sub = "signet-user"
            claims.aud = ["jwcrypto"]
            claims.iat = now
            claims.exp = now.addingTimeInterval(600)
            claims.nonce = "nonce-\(algorithm.rawValue)"
            let token = try signer.signJWT(claims)
            let jwk = try signer.publicJWK()
            signedBySignet.append(SignedBySignet(algorithm: algorithm, token: token, jwk: jwk))
            verifyRequests.append(["alg": .string(algorithm.rawValue), "jwk": jwk.jsonValue, "token": .string(token)])
            signRequests.append(["alg": .string(algorithm.rawValue), "kid": .string("py-\(algorithm.rawValue)"),
                                 "claims": ["iss": .string(pythonIssuer), "sub": "py-user", "aud": "signet",
                                            "iat": .int(iat), "exp": .int(iat + 600),
                                            "nonce": .string("nonce-\(algorithm.rawValue)")]])
        }
        let request: JSONValue = ["verify": .array(verifyRequests), "sign": .array(signRequests)]
        let output = try runPython(input: request.serialized())
        guard let response = (try? JSONValue.parse(output))?.objectValue else {
            throw InteropFailure(description: "jose_interop.py printed something that is not a JSON object: \(String(decoding: output.prefix(300), as: UTF8.self))")
        }
        return Exchange(signedBySignet: signedBySignet, response: response, startedAt: now)
    }

    static func runPython(input: [UInt8]) throws -> [UInt8] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Interop").appendingPathComponent("jose_interop.py")
        let python = ProcessInfo.processInfo.environment["SIGNET_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
        let result: SubprocessResult
        do {
            result = try Subprocess.runBlocking(python ?? "python3", [script.path], stdin: input)
        } catch {
            throw InteropFailure(description: "cannot start \(python ?? "python3"): \(error). Set SIGNET_PYTHON to a Python with jwcrypto (make pydeps).")
        }
        guard result.succeeded else {
            let hint = result.status == 3
                ? " Install it: python3 -m venv .build/pytools && .build/pytools/bin/pip install jwcrypto==1.5.6, then export SIGNET_PYTHON=$PWD/.build/pytools/bin/python (make test does this)."
                : ""
            throw InteropFailure(description: "jose_interop.py exited \(result.status): \(result.stderr)\(hint)")
        }
        let output = result.stdoutBytes
        return Array(output)
    }
}
