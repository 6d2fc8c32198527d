import Foundation
import SignetCore
import SignetCrypto
import SignetJOSE
import SignetServer
import SignetTesting
import Testing

/// What the second-factor tests share: pyotp computing codes from what the page showed, the QR
/// code read back by zbarimg, the recovery codes on the page, the claims of a token.
enum SecondFactorSupport {
    /// The grouped key the enrolment page shows, without its spaces.
    static func shownSecret(_ page: String) throws -> String {
        let marker = "<code id=\"totp-secret\""
        let start = try #require(page.range(of: marker))
        let open = try #require(page[start.upperBound...].firstIndex(of: ">"))
        let close = try #require(page[open...].range(of: "</code>"))
        return String(page[page.index(after: open)..<close.lowerBound]).filter { $0 != " " }
    }

    /// pyotp's code (written independently of Signet's TOTP) for a base32 secret, or for an
    /// otpauth URI read by `pyotp.parse_uri`, at a Unix time.
    static func pyotp(secretOrURI: String, at date: Date) throws -> String {
        try RealPart.pyotp.use()
        let script = """
            import sys, pyotp
            value, t = sys.argv[1], int(sys.argv[2])
            totp = pyotp.parse_uri(value) if value.startswith("otpauth://") else pyotp.TOTP(value)
            print(totp.at(t))
            """
        let result = try Subprocess.runBlocking(PackagePaths.python, ["-c", script, secretOrURI, String(Int64(date.timeIntervalSince1970))])
        try #require(result.succeeded, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The inline `<svg>` of a page drawn as a PGM by this test's own reading of its markup
    /// (the `viewBox` and the path's `M x y h w v1 h-w z` runs; no SignetQR code), then decoded
    /// by zbarimg (zbar-tools). Returns what zbarimg read.
    static func decodeInlineQR(_ page: String) throws -> String {
        try RealPart.zbar.use()
        let svgStart = try #require(page.range(of: "<svg"))
        let svgEnd = try #require(page.range(of: "</svg>", range: svgStart.upperBound..<page.endIndex))
        let svg = String(page[svgStart.lowerBound..<svgEnd.upperBound])
        let viewBox = try #require(Self.attribute("viewBox", in: svg)).split(separator: " ").compactMap { Int($0) }
        try #require(viewBox.count == 4 && viewBox[2] == viewBox[3])
        let side = viewBox[2], scale = 4
        var pixels = [UInt8](repeating: 255, count: side * scale * side * scale)
        let pathStart = try #require(svg.range(of: "<path"))
        let d = try #require(Self.attribute("d", in: String(svg[pathStart.lowerBound...])))
        // Each run: M{x} {y}h{w}v1h-{w}z, a w×1 rectangle of dark modules.
        for run in d.split(separator: "z") {
            let numbers = run.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            try #require(numbers.count == 5 && numbers[3] == 1 && numbers[4] == -numbers[2], "unexpected path run \(run)")
            let (x, y, runWidth) = (numbers[0], numbers[1], numbers[2])
            for dy in 0..<scale {
                for dx in 0..<(runWidth * scale) {
                    pixels[(y * scale + dy) * side * scale + x * scale + dx] = 0
                }
            }
        }
        let directory = try TemporaryDirectory(prefix: "qr")
        defer { directory.remove() }
        let path = directory.appending("page.pgm")
        let pgm = Array("P5\n\(side * scale) \(side * scale)\n255\n".utf8) + pixels
        try #require(FileManager.default.createFile(atPath: path, contents: Data(pgm)))
        let result = try Subprocess.runBlocking("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path])
        try #require(result.succeeded, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    static func attribute(_ name: String, in markup: String) -> String? {
        guard let start = markup.range(of: " \(name)=\"") else { return nil }
        guard let end = markup[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(markup[start.upperBound..<end])
    }

    /// The recovery codes listed on a page.
    static func recoveryCodes(_ page: String) -> [String] {
        guard let list = page.range(of: "<ul id=\"recovery-codes\">"), let end = page.range(of: "</ul>", range: list.upperBound..<page.endIndex)
        else { return [] }
        return page[list.upperBound..<end.lowerBound].components(separatedBy: "<code>").dropFirst().compactMap {
            $0.components(separatedBy: "</code>").first
        }
    }

    /// The payload of a JWT.
    static func claims(_ jwt: String) throws -> [String: JSONValue] {
        let parts = jwt.split(separator: ".")
        try #require(parts.count == 3)
        return try #require(try JSONValue.parse(Base64URL.decode(String(parts[1])) ?? []).objectValue)
    }

    /// Redeems a code and returns the ID token's and the access token's claims.
    static func tokenClaims(_ env: Interactive, code: String, pkce: PKCEPair) async throws -> (id: [String: JSONValue], access: [String: JSONValue]) {
        let tokens = try await env.redeem(code: code, pkce: pkce)
        try #require(tokens.status == 200, "\(tokens)")
        let json = try tokens.json().objectValue ?? [:]
        return (try claims(try #require(json["id_token"]?.stringValue)), try claims(try #require(json["access_token"]?.stringValue)))
    }

    /// Signs in with the password (the user has no factor yet), then sets up the authenticator
    /// app on the account page with pyotp's code for the secret the QR code holds. Returns the
    /// browser (signed in), the secret and the recovery codes.
    static func enrol(_ env: Interactive) async throws -> (browser: FormBrowser, secret: String, recoveryCodes: [String]) {
        let browser = FormBrowser()
        _ = try await env.signIn(browser, pkce: .generate())
        let page = try await browser.open(env.server.url(Routes.accountTOTP))
        try #require(page.status == 200, "\(page)")
        let secret = try shownSecret(page.response.text)
        let uri = try decodeInlineQR(page.response.text)
        let code = try pyotp(secretOrURI: uri, at: env.server.clock.now)
        let confirmed = try await browser.submit(formWithAction: Routes.accountTOTP, fields: ["code": code])
        try #require(confirmed.status == 200, "\(confirmed)")
        let codes = recoveryCodes(confirmed.response.text)
        try #require(codes.count == 10)
        return (browser, secret, codes)
    }
}
