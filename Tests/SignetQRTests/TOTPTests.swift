import Foundation
import SignetCore
import SignetCrypto
import SignetQR
import SignetTesting
import Testing

@Suite(.endToEndLimit)
struct TOTPTests {
    /// RFC 6238 Appendix B, SHA-1 rows (secret "12345678901234567890"); six digits are the last
    /// six of the RFC's eight.
    @Test(arguments: [(59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
                      (2_000_000_000, "279037"), (20_000_000_000, "353130")] as [(Int64, String)])
    func rfc6238Vectors(_ time: Int64, _ expected: String) {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        #expect(totp.code(step: TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(time)))) == expected)
    }

    @Test func aCodeIsGoodOnceWithinOneStepOfDrift() {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        let step = TOTP.step(at: now)
        #expect(totp.matchingStep(totp.code(step: step), at: now, after: nil) == step)
        #expect(totp.matchingStep(totp.code(step: step - 1), at: now, after: nil) == step - 1)
        #expect(totp.matchingStep(totp.code(step: step + 1), at: now, after: nil) == step + 1)
        #expect(totp.matchingStep(totp.code(step: step - 2), at: now, after: nil) == nil)
        #expect(totp.matchingStep(totp.code(step: step + 2), at: now, after: nil) == nil)
        // Replay: the step already used, or an earlier one, is refused.
        #expect(totp.matchingStep(totp.code(step: step), at: now, after: step) == nil)
        #expect(totp.matchingStep(totp.code(step: step - 1), at: now, after: step) == nil)
        #expect(totp.matchingStep(totp.code(step: step + 1), at: now, after: step) == step + 1)
        // Spaces are ignored; anything but six digits is refused.
        let code = totp.code(step: step)
        #expect(totp.matchingStep(String(code.prefix(3)) + " " + code.dropFirst(3), at: now, after: nil) == step)
        for bad in ["", "12345", "1234567", "12345a", "１２３４５６", code + "\n"] {
            #expect(totp.matchingStep(bad, at: now, after: nil) == nil)
        }
    }

    @Test func base32FollowsRFC4648() {
        let vectors = [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
                       ("foobar", "MZXW6YTBOI")]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
            #expect(Base32.decode(encoded.lowercased()) == Array(plain.utf8))
        }
        #expect(Base32.decode("MZXW6YTBOI======") == Array("foobar".utf8))
        for bad in ["MZXW6YTBO1", "MZ=XW", "MZXW6YTBOJ", "M"] { #expect(Base32.decode(bad) == nil, "\(bad)") }
    }

    /// pyotp (PyPI), written independently, computes the same codes from the same secret and
    /// reads the provisioning URI the same way.
    @Test(.enabled(if: RealPart.pyotp.canRun, RealPart.pyotp.skipComment))
    func pyotpAgrees() throws {
        try RealPart.pyotp.use()
        let totp = TOTP(secret: SecureRandom.bytes(20))
        let times: [Int64] = [0, 59, 1_700_000_000, 1_796_126_400, 4_102_444_800]
        let uri = totp.provisioningURI(issuer: "Signet Démo", account: "ada+tag@example.test")
        let script = """
            import json, sys, pyotp
            uri, times = sys.argv[1], [int(t) for t in sys.argv[2:]]
            parsed = pyotp.parse_uri(uri)
            print(json.dumps({"codes": [parsed.at(t) for t in times], "secret": parsed.secret,
                              "issuer": parsed.issuer, "name": parsed.name, "digits": parsed.digits, "interval": parsed.interval}))
            """
        let result = try Subprocess.runBlocking(PackagePaths.python, ["-c", script, uri] + times.map(String.init))
        try #require(result.succeeded, "\(result.stderr)")
        struct Answer: Decodable { let codes: [String]; let secret: String; let issuer: String; let name: String; let digits: Int; let interval: Int }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.stdout.utf8))
        #expect(answer.codes == times.map { totp.code(step: TOTP.step(at: Date(timeIntervalSince1970: TimeInterval($0)))) })
        #expect(Base32.decode(answer.secret) == totp.secret)
        #expect(answer.issuer == "Signet Démo")
        #expect(answer.name == "ada+tag@example.test")
        #expect(answer.digits == 6 && answer.interval == 30)
    }
}

@Suite(.endToEndLimit)
struct QRCodeTests {
    /// zbarimg (Debian's zbar-tools) reads the drawn code back to the exact URI.
    @Test(.enabled(if: RealPart.zbar.canRun, RealPart.zbar.skipComment))
    func zbarReadsTheProvisioningURIBack() throws {
        try RealPart.zbar.use()
        let uri = TOTP(secret: SecureRandom.bytes(20)).provisioningURI(issuer: "Signet", account: "ada@example.test")
        let code = try #require(QRCode(uri))
        let directory = try TemporaryDirectory(prefix: "qr")
        defer { directory.remove() }
        let path = directory.appending("code.pgm")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(code.pgm())))
        let result = try Subprocess.runBlocking("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path])
        try #require(result.succeeded, "\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .newlines) == uri)
    }

    @Test func theSVGIsOnePathOnWhiteWithItsTitleEscaped() throws {
        let code = try #require(QRCode("otpauth://totp/Signet:ada?secret=ABC"))
        #expect(code.width >= 21 && (code.width - 21) % 4 == 0)
        let svg = code.svg(title: "Scan <this> & go")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<title>Scan &lt;this&gt; &amp; go</title>"))
        #expect(svg.components(separatedBy: "<path").count == 2)
        #expect(!svg.contains("<script"))
    }

    @Test func tooMuchTextIsRefused() {
        #expect(QRCode(String(repeating: "x", count: 3_000)) == nil)
    }
}
