import Testing
@testable import SignetWire

/// `Accept-Language` (RFC 9110 §12.5.4) to a page language.
@Suite struct PageLanguageTests {
    @Test(arguments: [
        ("de", PageLanguage.de),
        ("de-DE,de;q=0.9,en;q=0.8", .de),
        ("DE-ch", .de),                          // case-insensitive, primary subtag
        ("en-US,en;q=0.9,de;q=0.8", .en),
        ("de;q=0.4, en;q=0.8", .en),             // weights, not order
        ("fr;q=1, en;q=0.2, de;q=0.7", .de),     // unsupported French skipped, then the highest weight
        ("en;q=0.5, de;q=0.5", .en),             // a tie: the header's order
        ("de;q=0.5, en;q=0.5", .de),
        ("fr-FR, ja;q=0.9", .en),                // nothing supported: English
        ("*", .en),
        ("de;q=0, *", .en),                      // q=0 refuses German even through *
        ("en;q=0, *", .de),
        ("en;q=0, de;q=0", .en),                 // nothing acceptable: English anyway
        ("", .en),
        (";;;q=abc,,", .en),
        ("de;q=1.5", .en),                       // not a qvalue: the range is ignored
        ("de;q=0.1234", .en),                    // more than three decimals
        ("de ; q=0.300 , en;q=0.2", .de),        // optional whitespace
    ] as [(String, PageLanguage)])
    func theBrowsersPreferenceIsChosen(_ header: String, _ expected: PageLanguage) {
        #expect(PageLanguage.preferred(acceptLanguage: header) == expected, "\(header)")
    }

    @Test func noHeaderIsEnglish() {
        #expect(PageLanguage.preferred(acceptLanguage: nil) == .en)
    }

    @Test func qValuesFollowTheGrammar() {
        #expect(PageLanguage.qValue("1") == 1000)
        #expect(PageLanguage.qValue("1.000") == 1000)
        #expect(PageLanguage.qValue("1.001") == nil)
        #expect(PageLanguage.qValue("0.5") == 500)
        #expect(PageLanguage.qValue("0.05") == 50)
        #expect(PageLanguage.qValue("0.") == 0)
        #expect(PageLanguage.qValue(".5") == nil)
        #expect(PageLanguage.qValue("2") == nil)
    }

    @Test func aMissingGermanTextFallsBackToEnglishAndArgumentsAreFilledOnce() {
        let text = Localized("Sign in to {1} as {2}", de: nil)
        #expect(text.text(.de, ["Acme", "{1}"]) == "Sign in to Acme as {1}")
        let html = Localized("<{1}> & {2}", de: "„{1}“ {2}")
        #expect(html.html(.en, ["<b>x</b>", "y"]) == "&lt;<b>x</b>&gt; &amp; y")
        #expect(html.html(.de, ["<b>x</b>", "y"]) == "„<b>x</b>“ y")
        #expect(Localized("{3} {x} {", de: nil).text(.en, ["a"]) == "{3} {x} {")
    }
}

/// The brand's colours: parsing, WCAG contrast, and the derived colours each readable where used.
@Suite struct BrandColorTests {
    @Test func onlyHexColoursParse() {
        #expect(BrandColor(hex: "#0A7d3B")?.description == "#0a7d3b")
        for bad in ["red", "#abc", "0a7d3b", "#0a7d3g", "#0a7d3b0", "url(x)", ""] { #expect(BrandColor(hex: bad) == nil, "\(bad)") }
    }

    @Test func contrastIsWCAG() {
        #expect(abs(BrandColor.white.contrast(with: BrandColor(red: 0, green: 0, blue: 0)) - 21) < 0.01)
        #expect(BrandColor.white.contrast(with: .white) == 1)
    }

    @Test(arguments: ["#2456c9", "#0a7d3b", "#ffeb3b", "#ffffff", "#000000", "#ff0000", "#7f7f7f", "#1a1e24"])
    func everyDerivedColourReadsWhereItIsUsed(_ hex: String) throws {
        let palette = Brand(productName: "x", primaryColor: try #require(BrandColor(hex: hex))).palette
        #expect(palette.primary.contrast(with: palette.onPrimary) >= 4.5, "button text on \(hex)")
        #expect(palette.link.contrast(with: .white) >= 4.5, "link on the light card for \(hex)")
        #expect(palette.linkDark.contrast(with: .darkCard) >= 4.5, "link on the dark card for \(hex)")
    }

    @Test func signetBlueKeepsItsLookAndAYellowGetsDarkText() throws {
        let blue = Brand.signet.palette
        #expect(blue.primary.description == "#2456c9" && blue.onPrimary == .white && blue.link.description == "#2456c9")
        let yellow = Brand(productName: "x", primaryColor: try #require(BrandColor(hex: "#ffeb3b"))).palette
        #expect(yellow.onPrimary != .white)
        #expect(yellow.link != yellow.primary, "darkened for the light card")
    }

    @Test func theLoopbackPageKeepsItsInlineSheetAndEnglish() {
        let page = PageLayout.render(title: "Signed <in>", body: "<p>x</p>")
        #expect(page.contains("<html lang=\"en\">"))
        #expect(page.contains("<title>Signed &lt;in&gt; · Signet</title>"))
        #expect(page.contains("<style>\n" + PageLayout.stylesheet(for: .signet) + "</style>"))
        #expect(!page.contains("<link"))
        #expect(!page.contains("<footer>"))
    }
}
