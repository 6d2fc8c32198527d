import Testing
@testable import SignetWire

@Suite struct RedirectURIRegistrationTests {
    @Test(arguments: [
        "https://app.example.com/callback",
        "com.example.app:/callback",
        "com.example.app:/oauth2redirect/provider?x=1",
        "http://127.0.0.1/callback",
        "http://127.0.0.1:8765/callback",
        "http://[::1]:8765/callback",
    ])
    func acceptsNativeRedirectURIs(_ uri: String) throws {
        _ = try RedirectURI(registering: uri)
    }

    @Test(arguments: [
        "",                                      // empty
        "/callback",                             // relative
        "myapp:/callback",                       // not reverse-domain
        "javascript:alert(1)",                   // script scheme
        "http://localhost:8765/callback",        // RFC 8252 §8.3: localhost is not a literal
        "http://example.com/callback",           // plain http off loopback
        "https://app.example.com/callback#frag", // fragment
        "https://*.example.com/callback",        // wildcard
        "https://user@app.example.com/cb",       // userinfo
        "https:///callback",                     // no host
        "https://app.example.com/call back",     // space
        "https://app.example.com/<script>",      // angle brackets
        "com.example.app://host/callback",       // authority on a private-use scheme
        "http://127.0.0.1:99999/cb",             // port out of range
        ".example.app:/cb",                      // invalid scheme
    ])
    func refusesUnsafeRedirectURIs(_ uri: String) {
        #expect(throws: RedirectURIError.self) { try RedirectURI(registering: uri) }
    }

    @Test func classifiesKinds() throws {
        #expect(try RedirectURI(registering: "https://a.example/cb").kind == .claimedHTTPS)
        #expect(try RedirectURI(registering: "com.example.app:/cb").kind == .privateUseScheme)
        #expect(try RedirectURI(registering: "http://[::1]/cb").kind == .loopback)
    }
}

@Suite struct RedirectURIMatchingTests {
    @Test func exactMatchOnly() throws {
        let registered = try RedirectURI(registering: "https://app.example.com/callback")
        #expect(registered.matches("https://app.example.com/callback"))
        for variant in [
            "https://app.example.com/callback/",       // trailing slash
            "https://APP.example.com/callback",        // case
            "https://app.example.com/Callback",
            "https://app.example.com/callback?x=1",    // added query
            "https://app.example.com/callback#x",      // fragment
            "https://app.example.com:443/callback",    // explicit port
            "https://app.example.com@evil.example/callback",
            "https://evil.example/callback",
            "https://app.example.com/%63allback",      // encoded character
            "https://app.example.com/callback/../callback",
            "http://app.example.com/callback",
        ] {
            #expect(!registered.matches(variant), "\(variant) must not match")
        }
    }

    @Test func loopbackMatchesAnyPort() throws {
        // RFC 8252 §7.3
        let registered = try RedirectURI(registering: "http://127.0.0.1/callback")
        #expect(registered.matches("http://127.0.0.1/callback"))
        #expect(registered.matches("http://127.0.0.1:51234/callback"))
        #expect(registered.matches("http://127.0.0.1:1/callback"))
        #expect(!registered.matches("http://127.0.0.1:0/callback"))
        #expect(!registered.matches("http://127.0.0.1:051234/callback"))
        #expect(!registered.matches("http://127.0.0.1:51234/callback/"))
        #expect(!registered.matches("http://127.0.0.1:51234/other"))
        #expect(!registered.matches("http://127.0.0.1:51234/callback?x=1"))
        #expect(!registered.matches("http://localhost:51234/callback"))
        #expect(!registered.matches("http://[::1]:51234/callback"))
        #expect(!registered.matches("https://127.0.0.1:51234/callback"))
        #expect(!registered.matches("http://evil@127.0.0.1:51234/callback"))
        #expect(!registered.matches("http://127.0.0.1:51234@evil.example/callback"))
        let withPort = try RedirectURI(registering: "http://[::1]:8765/cb")
        #expect(withPort.matches("http://[::1]:9000/cb"))
        #expect(!withPort.matches("http://127.0.0.1:9000/cb"))
    }

    @Test func privateUseSchemeIsExact() throws {
        let registered = try RedirectURI(registering: "com.example.app:/callback")
        #expect(registered.matches("com.example.app:/callback"))
        #expect(!registered.matches("com.example.app:/callback2"))
        #expect(!registered.matches("COM.EXAMPLE.APP:/callback"))
        #expect(!registered.matches("com.example.app://callback"))
        #expect(!registered.matches("com.example.evil:/callback"))
    }
}

@Suite struct ScopeTests {
    @Test func parsesAndDeduplicates() throws {
        let scope = try Scope(parsing: "openid  profile openid email")
        #expect(scope.tokens == ["openid", "profile", "email"])
        #expect(scope.description == "openid profile email")
        #expect(try Scope(parsing: "openid").isSubset(of: scope))
        #expect(!(try Scope(parsing: "openid admin")).isSubset(of: scope))
    }

    @Test func leadingTrailingAndRepeatedSpacesAndLongLists() throws {
        #expect(try Scope(parsing: "  openid   email ").tokens == ["openid", "email"])
        #expect(try Scope(parsing: "").tokens == [])
        #expect(try Scope(parsing: "   ").tokens == [])
        #expect(try Scope(parsing: "a").tokens == ["a"])
        // More than 16 tokens take the set path; order and first occurrence are kept the same way.
        let many = (0..<40).map { "s\($0 % 25)" }
        #expect(try Scope(parsing: many.joined(separator: " ")).tokens == (0..<25).map { "s\($0)" })
        #expect(Scope(many).tokens == (0..<25).map { "s\($0)" })
    }

    @Test func refusesBadCharacters() {
        for bad in ["open\"id", "a\\b", "caf\u{e9}", "a\tb"] {
            #expect(throws: OAuthError.self) { try Scope(parsing: bad) }
        }
    }
}
