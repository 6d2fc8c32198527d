import SignetCore
import Testing

/// `EmailAddress.normalize`: one address, one spelling, wherever it enters; international
/// domains through libidn2 to their A-label form.
struct EmailAddressTests {
    @Test(arguments: [
        ("user@bücher.example", "user@xn--bcher-kva.example"),
        ("user@xn--bcher-kva.example", "user@xn--bcher-kva.example"),
        (" User@BÜCHER.Example ", "user@xn--bcher-kva.example"),
        ("user@XN--BCHER-KVA.example", "user@xn--bcher-kva.example"),
        ("user@bu\u{0308}cher.example", "user@xn--bcher-kva.example"),   // decomposed ü: NFC first
        ("ok@münchen.de", "ok@xn--mnchen-3ya.de"),
        ("ok@faß.de", "ok@xn--fa-hia.de"),                                // UTS #46 non-transitional: ß stays ß
        ("ok@例え.テスト", "ok@xn--r8jz45g.xn--zckzah"),
        ("Bea@Example.COM", "bea@example.com"),
    ])
    func internationalDomainsBecomeTheirALabels(raw: String, normalized: String) throws {
        #expect(try EmailAddress.normalize(raw) == normalized)
    }

    @Test(arguments: [
        ("jürgen@example.com", UserServiceError.Reason.emailLocalNotASCII),
        ("user@xn--zz.example", .emailDomainInvalid),           // not Punycode
        ("user@xn--a.com", .emailDomainInvalid),               // decodes to a label IDNA2008 refuses
        ("user@☃.com", .emailDomainInvalid),                   // DISALLOWED in IDNA2008
        ("user@١٢٣.com", .emailDomainInvalid),                  // the bidi rule
        ("user@ex_ample.com", .emailDomainInvalid),            // UTS #46 would drop the "_": refused before it
        ("user@ex ample.com", .emailDomainInvalid),            // a space in the domain
        ("user@-bücher.example", .emailDomainInvalid),
        ("user@bücher", .emailDomainInvalid),                  // one label
        ("not-an-address", .emailInvalid),
        ("a@b@example.com", .emailInvalid),
    ])
    func invalidAddressesAreRefusedWithTheirReason(raw: String, reason: UserServiceError.Reason) {
        #expect(throws: UserServiceError.self) { try EmailAddress.normalize(raw) }
        do { _ = try EmailAddress.normalize(raw); Issue.record("accepted \(raw)") } catch { #expect(error.reason == reason, "\(raw): \(error)") }
    }

    @Test func theLengthLimitsApplyToTheNormalisedAddress() throws {
        // 60 ü's make a label of 60 bytes' characters but an A-label longer than 63 bytes.
        let long = "user@" + String(repeating: "ü", count: 60) + ".example"
        do { _ = try EmailAddress.normalize(long); Issue.record("accepted") } catch { #expect(error.reason == .emailDomainInvalid) }
        let address = String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + "." + String(repeating: "c", count: 63) + "."
            + String(repeating: "d", count: 60) + ".de"
        #expect(address.utf8.count > 254)
        do { _ = try EmailAddress.normalize(address); Issue.record("accepted") } catch { #expect(error.reason == .emailTooLong) }
        do { _ = try EmailAddress.normalize(String(repeating: "ü", count: 2000)); Issue.record("accepted") } catch { #expect(error.reason == .emailTooLong) }
    }
}
