import SignetHTTP
import SignetTesting
import Testing

@Suite(.endToEndLimit) struct IPAddressTests {
    @Test func parsesAndPrintsBothFamiliesAndUnmapsIPv4MappedAddresses() throws {
        #expect(IPAddress("192.0.2.1")?.description == "192.0.2.1")
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        #expect(IPAddress("::ffff:192.0.2.1") == IPAddress("192.0.2.1"))
        for bad in ["", "192.0.2", "192.0.2.256", "1.2.3.4.5", "01.2.3.4x", "[::1]", "::1%eth0", "2001:db8::1::2", "unknown", "_hidden"] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }

    /// IPv6 clients are counted by their /64: any address inside it is one client.
    @Test func rateLimitKeyIsTheAddressForIPv4AndTheSlash64ForIPv6() throws {
        #expect(IPAddress("192.0.2.1")?.rateLimitKey == "192.0.2.1")
        #expect(IPAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")?.rateLimitKey == "2001:db8:1:2::/64")
        #expect(IPAddress("2001:db8:1:2::1")?.rateLimitKey == IPAddress("2001:db8:1:2:ffff::9")?.rateLimitKey)
        #expect(IPAddress("2001:db8:1:3::1")?.rateLimitKey != IPAddress("2001:db8:1:2::1")?.rateLimitKey)
        let request = HTTPRequest(method: .GET, path: "/", peerAddress: "2001:db8:1:2::99")
        #expect(request.clientKey == "2001:db8:1:2::/64")
    }
}

@Suite(.endToEndLimit) struct IPNetworkTests {
    @Test func containsAddressesInsideThePrefixOnly() throws {
        let v4 = try IPNetwork("10.1.0.0/16")
        #expect(v4.contains(try #require(IPAddress("10.1.255.7"))))
        #expect(!v4.contains(try #require(IPAddress("10.2.0.1"))))
        #expect(!v4.contains(try #require(IPAddress("::ffff:10.2.0.1"))))
        let v6 = try IPNetwork("2001:db8::/32")
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db9::1"))))
        #expect(!v6.contains(try #require(IPAddress("10.1.0.1"))))
        let single = try IPNetwork("192.0.2.7")
        #expect(single.prefixLength == 32)
        #expect(single.contains(try #require(IPAddress("192.0.2.7"))))
        #expect(!single.contains(try #require(IPAddress("192.0.2.8"))))
        #expect(try IPNetwork("0.0.0.0/0").contains(try #require(IPAddress("203.0.113.9"))))
        #expect(try IPNetwork("10.0.0.0/9").contains(try #require(IPAddress("10.127.0.1"))))
        #expect(try !IPNetwork("10.0.0.0/9").contains(try #require(IPAddress("10.128.0.1"))))
    }

    @Test func refusesWhatIsNotARange() {
        #expect(throws: IPNetworkError.notAnAddress("example.com")) { try IPNetwork("example.com") }
        #expect(throws: IPNetworkError.badPrefix("10.0.0.0/")) { try IPNetwork("10.0.0.0/") }
        #expect(throws: IPNetworkError.badPrefix("10.0.0.0/33")) { try IPNetwork("10.0.0.0/33") }
        #expect(throws: IPNetworkError.badPrefix("::/129")) { try IPNetwork("::/129") }
        #expect(throws: IPNetworkError.badPrefix("10.0.0.0/x")) { try IPNetwork("10.0.0.0/x") }
        #expect(throws: IPNetworkError.hostBitsSet("10.0.0.1/8")) { try IPNetwork("10.0.0.1/8") }
    }
}

@Suite(.endToEndLimit) struct TrustedProxiesTests {
    static let proxies = TrustedProxies(networks: ["10.0.0.0/8", "2001:db8:ffff::/48"].compactMap { try? IPNetwork($0) })

    func client(_ peer: String, _ headers: [(String, String)]) -> (address: String, isSecure: Bool?) {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        return Self.proxies.client(peer: peer, headers: fields)
    }

    @Test func headersFromAnUntrustedPeerChangeNothing() {
        let forged = [("X-Forwarded-For", "198.51.100.1"), ("Forwarded", "for=198.51.100.2;proto=https"), ("X-Forwarded-Proto", "https")]
        let result = client("203.0.113.5", forged)
        #expect(result.address == "203.0.113.5")
        #expect(result.isSecure == nil)
        #expect(TrustedProxies.none.client(peer: "10.0.0.1", headers: ["X-Forwarded-For": "198.51.100.1"]).address == "10.0.0.1")
    }

    @Test func xForwardedForIsWalkedFromTheRightPastTrustedHops() {
        // The client wrote "1.1.1.1" itself; the first proxy appended the real peer it saw.
        #expect(client("10.0.0.1", [("X-Forwarded-For", "1.1.1.1, 198.51.100.7")]).address == "198.51.100.7")
        #expect(client("10.0.0.1", [("X-Forwarded-For", "1.1.1.1, 198.51.100.7, 10.9.9.9")]).address == "198.51.100.7")
        // Two header lines are one list, in order.
        #expect(client("10.0.0.1", [("X-Forwarded-For", "1.1.1.1"), ("X-Forwarded-For", "198.51.100.7, 10.2.2.2")]).address == "198.51.100.7")
        // Every hop trusted: the leftmost is the client.
        #expect(client("10.0.0.1", [("X-Forwarded-For", "10.3.3.3, 10.2.2.2")]).address == "10.3.3.3")
        // Garbage where the nearest proxy should have written an address: the proxy stays the client.
        #expect(client("10.0.0.1", [("X-Forwarded-For", "198.51.100.7, not-an-ip")]).address == "10.0.0.1")
        #expect(client("10.0.0.1", [("X-Forwarded-For", "198.51.100.7:4711")]).address == "198.51.100.7")
        #expect(client("10.0.0.1", [("X-Forwarded-For", "2001:db8:1::5")]).address == "2001:db8:1::5")
        #expect(client("10.0.0.1", []).address == "10.0.0.1")
        #expect(client("10.0.0.1", [("X-Forwarded-For", "198.51.100.7"), ("X-Forwarded-Proto", "https")]).isSecure == true)
        #expect(client("10.0.0.1", [("X-Forwarded-For", "198.51.100.7"), ("X-Forwarded-Proto", "http")]).isSecure == false)
    }

    /// RFC 7239 §4-§6: quoted IPv6 with port, several elements, `unknown`, obfuscated names.
    @Test func forwardedIsPreferredAndParsedPerRFC7239() {
        let both = [("Forwarded", "for=\"[2001:db8:cafe::17]:4711\";proto=https"), ("X-Forwarded-For", "198.51.100.9")]
        let result = client("2001:db8:ffff::1", both)
        #expect(result.address == "2001:db8:cafe::17")
        #expect(result.isSecure == true)
        #expect(client("10.0.0.1", [("Forwarded", "for=1.1.1.1, for=198.51.100.7;proto=http, for=10.1.1.1;proto=https")]) == ("198.51.100.7", false))
        #expect(client("10.0.0.1", [("Forwarded", "For=198.51.100.7;Proto=HTTPS;by=10.0.0.1")]) == ("198.51.100.7", true))
        #expect(client("10.0.0.1", [("Forwarded", "for=unknown")]).address == "10.0.0.1")
        #expect(client("10.0.0.1", [("Forwarded", "for=_hidden, for=\"[2001:db8::1]\"")]).address == "2001:db8::1")
        #expect(client("10.0.0.1", [("Forwarded", "for=\"198.51.100.7, 1.1.1.1\"")]).address == "10.0.0.1")
    }
}
