import Foundation
import SignetCore
import SignetServer
import SignetTesting
import Testing

/// The DNS TXT proof of a domain claim against a real DNS server on loopback (dnsmasq) through
/// the real resolver (glibc's res_nquery with `domains.resolver` set to it).
@Suite(.endToEndLimit)
struct DomainResolverTests {
    static let long = String(repeating: "x", count: 300)

    @Test(.enabled(if: RealPart.dnsmasq.canRun, RealPart.dnsmasq.skipComment))
    func txtProofAgainstARealDNSServer() async throws {
        let dns = try await LocalDNSServer.start(zones: ["example.test"], records: [
            (DomainProof.recordName("acme.example.test"), DomainProof.recordValue("tok-acme")),
            (DomainProof.recordName("other.example.test"), "v=spf1 -all"),
            ("long.example.test", Self.long),
        ])
        defer { Task { await dns.stop() } }
        var settings = SignetConfiguration.defaults.domains
        settings.resolver = dns.address
        settings.resolverTimeout = 2
        let resolver = ResolvTXTResolver(settings)

        // The published token proves the claim; a different token is a mismatch.
        try DomainProof.check(domain: "acme.example.test", token: "tok-acme", resolver: resolver)
        #expect(throws: DomainProof.Failure.recordMismatch) {
            try DomainProof.check(domain: "acme.example.test", token: "tok-other", resolver: resolver)
        }
        // A TXT record that is not the proof; no record at all (NXDOMAIN in the zone).
        #expect(throws: DomainProof.Failure.recordMismatch) {
            try DomainProof.check(domain: "other.example.test", token: "tok-acme", resolver: resolver)
        }
        #expect(throws: DomainProof.Failure.recordMissing) {
            try DomainProof.check(domain: "missing.example.test", token: "tok-acme", resolver: resolver)
        }
        // A record over 255 bytes comes as several character-strings, joined (RFC 7208 §3.3).
        #expect(try resolver.txtRecords("long.example.test") == [Self.long])
        // A name the server will not answer for (REFUSED) is a failed lookup, not a missing record.
        #expect(throws: TXTLookupError.failed("the resolver gave no usable answer")) {
            try resolver.txtRecords("_signet-challenge.elsewhere.invalid")
        }
    }

    @Test func aServerThatDoesNotAnswerFailsWithinTheTimeout() throws {
        // Nothing listens on this UDP port: the lookup fails (bounded: 1 s a try), never "no record".
        var settings = SignetConfiguration.defaults.domains
        settings.resolver = "127.0.0.1:\(try FreePort.pick())"
        settings.resolverTimeout = 1
        let resolver = ResolvTXTResolver(settings)
        #expect(throws: TXTLookupError.failed("the resolver gave no usable answer")) {
            try resolver.txtRecords(DomainProof.recordName("acme.example.test"))
        }
    }

    @Test func resolverAddressesAreIPv4WithAnOptionalPort() {
        #expect(ResolverAddress(parsing: "127.0.0.1:5353") == ResolverAddress(parsing: "127.0.0.1:5353"))
        #expect(ResolverAddress(parsing: "10.0.0.2")?.port == 53)
        #expect(ResolverAddress(parsing: "127.0.0.1:5353")?.port == 5353)
        for bad in ["", "localhost", "::1", "[::1]:53", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.256", "127.0.0.01", "1.2.3", "1.2.3.4:", "1.2.3.4:5:6", "１.2.3.4"] {
            #expect(ResolverAddress(parsing: bad) == nil, "\(bad)")
        }
    }
}
