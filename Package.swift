// swift-tools-version: 6.0
// Signet: an OpenID Connect provider for native apps, and the Swift kit apps and APIs use with it.
// Only the toolchain's own modules and C libraries from Debian packages; no outside Swift package.
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The toolchain's host libraries (SwiftSyntax, the macro expander and the compiler-plugin message
/// handling), which the macro plugin `SignetMacrosPlugin` builds against in place of the
/// swift-syntax package: <toolchain>/usr/lib/swift/host, found from the Swift runtime this manifest
/// runs on (<toolchain>/usr/lib/swift/linux/libswiftCore.so) or else beside the `swift` on PATH;
/// nil (with a warning) where neither has them: the modules that need no macro (the library
/// product SignetJOSE, the SDK's modules) still build, and the macro plugin fails to find
/// SwiftSyntax.
let hostLibraries: String? = {
    let fileManager = FileManager.default
    var candidates: [URL] = []
    // /proc files have no size, so they are read to their end rather than by their length.
    let maps = FileHandle(forReadingAtPath: "/proc/self/maps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
    for line in maps.split(separator: "\n") where line.hasSuffix("/libswiftCore.so") {
        if let slash = line.firstIndex(of: "/") {
            candidates.append(URL(fileURLWithPath: String(line[slash...])).deletingLastPathComponent()
                .appendingPathComponent("../host"))
        }
    }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
        guard fileManager.isExecutableFile(atPath: swift.path) else { continue }
        candidates.append(swift.resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("../lib/swift/host"))
    }
    for candidate in candidates {
        let host = candidate.standardizedFileURL.path
        if fileManager.fileExists(atPath: host + "/SwiftSyntax.swiftmodule") { return host }
    }
    FileHandle.standardError.write(Data("""
        Signet: the toolchain's host libraries (<toolchain>/usr/lib/swift/host/SwiftSyntax.swiftmodule) \
        are not there; looked in: \(candidates.map(\.standardizedFileURL.path)). Build with a Swift 6 \
        toolchain from swift.org, its usr/bin first on PATH, to build the server's modules.

        """.utf8))
    return nil
}()
/// Compiles and links a target against `hostLibraries` (search paths, and the run-time path).
func hostLibrarySettings(_ libraries: [String]) -> (swift: [SwiftSetting], linker: [LinkerSetting]) {
    guard let host = hostLibraries else { return ([], libraries.map { .linkedLibrary($0) }) }
    return ([.unsafeFlags(["-I", host])],
            [.unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host])] + libraries.map { .linkedLibrary($0) })
}
let pluginSettings = hostLibrarySettings(["SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftCompilerPluginMessageHandling"])
let macroTestSettings = hostLibrarySettings(["SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftParser",
                                             "SwiftSyntaxMacroExpansion"])

let package = Package(
    name: "Signet",
    products: [
        .executable(name: "signet", targets: ["signet"]),
        .library(name: "SignetJOSE", targets: ["SignetJOSE"]),
    ],
    targets: [
        // C libraries from Debian packages.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CLibSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(name: "CLibQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // IDNA2008 / UTS #46: an email's international domain to its A-label form.
        .systemLibrary(name: "CLibIDN2", pkgConfig: "libidn2", providers: [.apt(["libidn2-dev"])]),
        .systemLibrary(name: "CLibCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibCbor", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        // Fixed-argument wrappers for variadic C functions and macros.
        .target(name: "CSignetShims", dependencies: ["CLibCrypto", "CSQLite", "CMicroHTTPD"]),
        // libsecret's schema and attribute table (glib), kept apart so CSignetShims needs no glib.
        .target(name: "CSecretShims", dependencies: ["CLibSecret"]),
        // Outbound HTTP/1.1 over plain sockets or OpenSSL TLS (Linux: URLSession's libcurl loop
        // spins a core while a fresh connection waits for its first response).
        .target(name: "CSignetOutbound", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // Child processes for the tests, with nothing of the parent's but three streams (Foundation's
        // Process on Linux lets every descriptor through and tracks a child by an inherited socket).
        .target(name: "CSignetSpawn"),
        // Data built into the binary (the common-password list), through `.incbin`.
        .target(name: "CSignetData", exclude: ["data/common-passwords.txt", "data/LICENSE-common-passwords"], cSettings: [.headerSearchPath("data")]),
        // SMTP submission through libcurl, one call per message.
        .target(name: "CSignetMail", dependencies: ["CLibCurl"]),
        // The X.509 checks of a WebAuthn attestation certificate (W3C WebAuthn §8.2.1) with libcrypto.
        .target(name: "CSignetAttestation", linkerSettings: [.linkedLibrary("crypto")]),
        // DNS TXT lookups (domain claims) through glibc's res_nquery with a chosen server.
        // glibc's libresolv (libc6-dev) has no pkg-config file: linked by name.
        .target(name: "CSignetResolver", linkerSettings: [.linkedLibrary("resolv")]),

        // Compile-time code generation for the server-side modules (the SDK's modules use none):
        // `@MemberwiseInit` (declared in SignetMacros, expanded by the SignetMacrosPlugin compiler
        // plugin, which lives outside Sources/ beside the other build tooling).
        .macro(name: "SignetMacrosPlugin", path: "Macros/SignetMacrosPlugin",
               swiftSettings: pluginSettings.swift, linkerSettings: pluginSettings.linker),
        .target(name: "SignetMacros", dependencies: ["SignetMacrosPlugin"]),

        .target(name: "SignetCrypto", dependencies: ["CLibCrypto", "CSodium", "CSignetShims"]),
        .target(name: "SignetJOSE", dependencies: ["SignetCrypto"]),
        .target(name: "SignetWire", dependencies: ["SignetCrypto"]),
        .target(name: "SignetStore", dependencies: ["SignetWire", "SignetCrypto", "SignetMacros"]),
        // The storage facets, statements and migrations, written once for both SQL backends.
        .target(name: "SignetSQL", dependencies: ["SignetStore", "SignetSync"]),
        .target(name: "SignetSQLite", dependencies: ["SignetSQL", "SignetSync", "CSQLite", "CSignetShims"]),
        .target(name: "SignetPostgres", dependencies: ["SignetSQL", "SignetSync", "CLibPQ"]),
        .target(name: "SignetCore", dependencies: ["SignetWire", "SignetJOSE", "SignetStore", "SignetSync", "CSignetData", "CLibIDN2", "SignetMacros"]),
        .target(name: "SignetFormEncoding"),
        .target(name: "SignetHTTP", dependencies: ["SignetFormEncoding", "SignetSync", "CMicroHTTPD", "CSignetShims", "SignetMacros"]),
        // Counters and histograms in the Prometheus text format.
        .target(name: "SignetMetrics"),
        // ThreadMutex: a plain pthread mutex for state every request thread takes.
        .target(name: "SignetSync"),
        // WebAuthn ceremonies as pure logic: CBOR (libcbor), COSE keys, attestation, assertions, options JSON.
        .target(name: "SignetWebAuthn", dependencies: ["SignetCrypto", "SignetJOSE", "CLibCbor", "CSignetAttestation", "SignetMacros"]),
        // QR codes (libqrencode) for authenticator-app enrolment.
        .target(name: "SignetQR", dependencies: ["CLibQREncode"]),
        // Mail: messages rendered as RFC 5322/MIME, SMTP submission (libcurl).
        .target(name: "SignetMail", dependencies: ["CSignetMail", "SignetCrypto", "SignetWire", "SignetFormEncoding", "SignetMacros"]),
        // Relying-party logic shared by the SDK, federation and the resource kit.
        .target(name: "SignetClientCore", dependencies: ["SignetWire", "SignetJOSE", "SignetFormEncoding",
                                                        .target(name: "CSignetOutbound", condition: .when(platforms: [.linux]))]),
        .target(name: "SignetFederation", dependencies: ["SignetClientCore", "SignetMacros"]),
        .target(name: "SignetResource", dependencies: ["SignetClientCore"]),
        .target(name: "SignetKit", dependencies: ["SignetClientCore"]),
        // Linux token storage in the Secret Service (libsecret); SignetKit itself stays free of glib.
        .target(name: "SignetKitSecretService", dependencies: ["SignetKit", "CLibSecret", "CSecretShims"]),
        // Apple-only glue (ASWebAuthenticationSession, Keychain); an empty module elsewhere.
        .target(name: "SignetKitApple", dependencies: ["SignetKit"]),
        .target(name: "SignetServer", dependencies: ["SignetCore", "SignetHTTP", "SignetStore", "SignetSQL", "SignetSQLite", "SignetPostgres",
                                                     "SignetFederation", "SignetMail", "SignetWebAuthn", "SignetQR", "SignetMetrics",
                                                     "CSignetResolver", "SignetMacros"]),
        .target(name: "SignetCLI", dependencies: ["SignetServer", "SignetSQLite", "SignetCore", "SignetKit", "SignetKitSecretService",
                                                  "SignetMockProvider", "SignetMail"]),
        .executableTarget(name: "signet", dependencies: ["SignetCLI"]),
        // The mock upstream provider (tests and `signet serve --demo`).
        .target(name: "SignetMockProvider", dependencies: ["SignetServer", "SignetHTTP", "SignetClientCore", "SignetMacros"]),
        .target(name: "SignetTesting", dependencies: ["SignetServer", "SignetHTTP", "SignetSQLite", "SignetClientCore", "SignetMockProvider",
                                                     "CSignetSpawn", "SignetWebAuthn", "SignetMacros"]),

        .executableTarget(name: "SignetBench", dependencies: ["SignetCrypto", "SignetJOSE", "SignetHTTP", "SignetServer",
                                                             "SignetMockProvider", "SignetCore", "SignetStore", "SignetSQL",
                                                             "SignetSQLite"],
                          path: "bench/SignetBench"),
        // The fuzz targets (docs/testing.md, "Fuzzing"). In the normal build a corpus replayer;
        // `make fuzz` builds it again with -sanitize=fuzzer,address and -DSIGNET_LIBFUZZER.
        .executableTarget(name: "SignetFuzz", dependencies: ["SignetCrypto", "SignetJOSE", "SignetWire", "SignetHTTP", "SignetWebAuthn",
                                                          "SignetClientCore", "CSignetOutbound", "CSignetResolver"],
                          path: "fuzz/SignetFuzz"),
        // An API protected by SignetResource (docs/guides/swift-api.md).
        .executableTarget(name: "ExampleAPI", dependencies: ["SignetHTTP", "SignetResource"], path: "Examples/ExampleAPI"),

        .testTarget(name: "SignetMacrosTests", dependencies: ["SignetMacrosPlugin"],
                    swiftSettings: macroTestSettings.swift, linkerSettings: macroTestSettings.linker),
        .testTarget(name: "SignetCryptoTests", dependencies: ["SignetCrypto"]),
        .testTarget(name: "SignetJOSETests", dependencies: ["SignetJOSE", "SignetTesting"], exclude: ["Interop"]),
        .testTarget(name: "SignetWireTests", dependencies: ["SignetWire"]),
        .testTarget(name: "SignetWebAuthnTests", dependencies: ["SignetWebAuthn", "SignetCrypto", "SignetJOSE"], exclude: ["Vectors"]),
        .testTarget(name: "SignetHTTPTests", dependencies: ["SignetHTTP", "SignetSync", "SignetTesting"]),
        .testTarget(name: "SignetMetricsTests", dependencies: ["SignetMetrics", "SignetHTTP", "SignetServer", "SignetTesting"]),
        .testTarget(name: "SignetQRTests", dependencies: ["SignetQR", "SignetCore", "SignetTesting"]),
        .testTarget(name: "SignetMailTests", dependencies: ["SignetMail", "SignetServer", "SignetTesting"]),
        .testTarget(name: "SignetStoreTests", dependencies: ["SignetStore", "SignetSQLite", "SignetPostgres", "SignetTesting"]),
        .testTarget(name: "SignetCoreTests", dependencies: ["SignetCore", "SignetServer"]),
        .testTarget(name: "SignetClientCoreTests", dependencies: ["SignetClientCore", "SignetHTTP", "SignetServer", "SignetTesting"]),
        .testTarget(name: "SignetFederationTests", dependencies: ["SignetFederation", "SignetTesting"]),
        .testTarget(name: "SignetKitTests", dependencies: ["SignetKit", "SignetKitSecretService", "SignetResource", "SignetTesting"], exclude: ["Browser"]),
        .testTarget(name: "SignetResourceTests", dependencies: ["SignetResource", "SignetTesting"]),
        .testTarget(name: "SignetServerTests", dependencies: ["SignetTesting", "SignetServer", "SignetCLI", "SignetPostgres", "SignetWebAuthn"],
                    exclude: ["Browser"]),
    ]
)
