import Testing
@testable import SignetCrypto

@Suite struct Argon2idTests {
    // libsodium's Argon2id minimums are opslimit 1 and memlimit 8 KiB; 8 MiB keeps tests fast.
    static let fast = Argon2idParameters(opsLimit: 1, memLimitBytes: 8 << 20)

    @Test func hashAndVerify() throws {
        let phc = try Argon2id.hash(password: "correct horse", parameters: Self.fast)
        #expect(phc.hasPrefix("$argon2id$v=19$m=8192,t=1,p=1$"))
        #expect(Argon2id.verify(password: "correct horse", phc: phc))
        #expect(!Argon2id.verify(password: "correct horsf", phc: phc))
        #expect(!Argon2id.verify(password: "", phc: phc))
        // Salted: the same password hashes differently.
        #expect(try Argon2id.hash(password: "correct horse", parameters: Self.fast) != phc)
    }

    @Test func emptyAndUnicodePasswords() throws {
        let empty = try Argon2id.hash(password: "", parameters: Self.fast)
        #expect(Argon2id.verify(password: "", phc: empty))
        #expect(!Argon2id.verify(password: " ", phc: empty))
        let unicode = try Argon2id.hash(password: "pässwörd🔑", parameters: Self.fast)
        #expect(Argon2id.verify(password: "pässwörd🔑", phc: unicode))
        #expect(!Argon2id.verify(password: "passwörd🔑", phc: unicode))
    }

    @Test func garbageNeverVerifies() {
        #expect(!Argon2id.verify(password: "x", phc: ""))
        #expect(!Argon2id.verify(password: "x", phc: "$argon2id$v=19$m=8192,t=1,p=1$AAAA$BBBB"))
        #expect(!Argon2id.verify(password: "x", phc: "$2b$10$abcdefghijklmnopqrstuv"))
        #expect(!Argon2id.verify(password: "x", phc: String(repeating: "a", count: 500)))
    }

    @Test func needsRehash() throws {
        let phc = try Argon2id.hash(password: "pw", parameters: Self.fast)
        #expect(!Argon2id.needsRehash(phc: phc, parameters: Self.fast))
        #expect(Argon2id.needsRehash(phc: phc, parameters: Argon2idParameters(opsLimit: 2, memLimitBytes: 8 << 20)))
        #expect(Argon2id.needsRehash(phc: phc, parameters: .interactive))
        #expect(Argon2id.needsRehash(phc: "not a hash", parameters: Self.fast))
    }

    /// The unmatchable string is one libsodium decodes with the same parameters as a real hash
    /// (`needsRehash` is false only for a string it parses whole: salt and hash lengths, base64,
    /// `m`, `t`, `p`), so `verify` runs the full computation on it; no password matches it, and two
    /// are never the same.
    @Test func unmatchableHasARealHashsShapeAndNeverVerifies() throws {
        for parameters in [Self.fast, Argon2idParameters(opsLimit: 3, memLimitBytes: 12 << 20), .interactive] {
            let real = try Argon2id.hash(password: "pw", parameters: parameters)
            let dummy = Argon2id.unmatchable(parameters: parameters)
            #expect(dummy.utf8.count == real.utf8.count)
            #expect(dummy.split(separator: "$").prefix(3) == real.split(separator: "$").prefix(3))
            #expect(!Argon2id.needsRehash(phc: dummy, parameters: parameters))
            #expect(Argon2id.needsRehash(phc: dummy, parameters: Argon2idParameters(opsLimit: 4, memLimitBytes: 8 << 20)))
            #expect(!Argon2id.verify(password: "pw", phc: dummy))
            #expect(!Argon2id.verify(password: "", phc: dummy))
            #expect(Argon2id.unmatchable(parameters: parameters) != dummy)
        }
        // Bytes that map to both of base64's last two characters, which libsodium's decoder takes
        // in their standard form only ("+/", not base64url's "-_").
        let edges = Argon2id.unmatchable(parameters: Self.fast) { [UInt8](repeating: 0xfb, count: $0) }
        #expect(edges.contains("+") && edges.contains("/"))
        #expect(!Argon2id.needsRehash(phc: edges, parameters: Self.fast))
    }

    @Test func parametersOutOfRangeThrow() {
        #expect(throws: CryptoError.self) { try Argon2id.hash(password: "pw", parameters: Argon2idParameters(opsLimit: 0, memLimitBytes: 8 << 20)) }
        #expect(throws: CryptoError.self) { try Argon2id.hash(password: "pw", parameters: Argon2idParameters(opsLimit: 1, memLimitBytes: 1024)) }
    }

    @Test func presets() {
        #expect(Argon2idParameters.interactive == Argon2idParameters(opsLimit: 2, memLimitBytes: 64 << 20))
        #expect(Argon2idParameters.moderate == Argon2idParameters(opsLimit: 3, memLimitBytes: 256 << 20))
    }
}
