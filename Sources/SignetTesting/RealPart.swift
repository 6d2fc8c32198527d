import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real parts a green run stands on: a PostgreSQL server, Chromium with its WebDriver, a
/// Secret Service keyring, an SMTP server (aiosmtpd), a QR decoder (zbarimg), a Prometheus server, a DNS server (dnsmasq),
/// the IPv6 loopback address (`::1`), and independently
/// written implementations (jwcrypto, oidc-provider-mock, pyotp). A test that needs one calls `use()` first.
///
/// Outside CI a missing part skips the tests that need it (through `canRun` in `.enabled(if:)`).
/// Under CI (`CI` or `SIGNET_REQUIRE_ALL` set) nothing is skipped: the test runs, and `use()`
/// fails it with the reason the part is missing. Every `use()` is written to
/// `$SIGNET_REAL_PARTS_LOG`, from which `scripts/run-tests.sh` prints how many tests used each
/// part, and under CI fails a run in which some part was used by no test.
public enum RealPart: String, CaseIterable, Sendable {
    case postgres = "PostgreSQL"
    case chromium = "Chromium"
    case keyring = "keyring"
    case jwcrypto = "jwcrypto"
    case oidcProviderMock = "oidc-provider-mock"
    case aiosmtpd = "aiosmtpd"
    case pyotp = "pyotp"
    case zbar = "zbarimg"
    case prometheus = "Prometheus"
    case schemathesis = "schemathesis"
    case dnsmasq = "dnsmasq"
    case ipv6Loopback = "IPv6 loopback"

    /// True when every real part must be present: `CI` (set by CI) or `SIGNET_REQUIRE_ALL` is set
    /// to anything but empty, `0` or `false`.
    public static let required: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return ["CI", "SIGNET_REQUIRE_ALL"].contains { name in
            guard let value = environment[name]?.lowercased() else { return false }
            return !["", "0", "false", "no"].contains(value)
        }
    }()

    /// A libpq connection string for a role that may create databases (`SIGNET_TEST_POSTGRES_URL`,
    /// which scripts/run-tests.sh sets after starting a throwaway cluster), or nil.
    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["SIGNET_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why this part cannot be used here, or nil when it can.
    public var unavailable: String? {
        switch self {
        case .postgres: return Self.postgresUnavailable
        case .chromium: return Self.chromiumUnavailable
        case .keyring: return Self.keyringUnavailable
        case .jwcrypto: return Self.jwcryptoUnavailable
        case .oidcProviderMock: return Self.oidcProviderMockUnavailable
        case .aiosmtpd: return Self.aiosmtpdUnavailable
        case .pyotp: return Self.pyotpUnavailable
        case .zbar: return Self.zbarUnavailable
        case .prometheus: return Self.prometheusUnavailable
        case .schemathesis: return Self.schemathesisUnavailable
        case .dnsmasq: return Self.dnsmasqUnavailable
        case .ipv6Loopback: return Self.ipv6LoopbackUnavailable
        }
    }

    /// For `.enabled(if:)`: the part is here, or every part is required (then `use()` fails the test).
    public var canRun: Bool { unavailable == nil || Self.required }

    /// The comment for a test that is skipped because this part is missing.
    public var skipComment: Comment { Comment(rawValue: unavailable ?? "") }

    /// Records that the running test uses this part, or throws why the part is missing.
    public func use() throws {
        if let reason = unavailable {
            let required = Self.required ? " is required (CI or SIGNET_REQUIRE_ALL is set) but" : ""
            throw TestingError("\(rawValue)\(required) cannot be used: \(reason)")
        }
        Self.record(self)
    }

    /// The `postgresURL`, after `use()`.
    public static func postgres() throws -> String {
        try RealPart.postgres.use()
        guard let url = postgresURL else { throw TestingError("SIGNET_TEST_POSTGRES_URL is not set") }
        return url
    }

    private static let postgresUnavailable: String? = postgresURL == nil
        ? "SIGNET_TEST_POSTGRES_URL is not set (scripts/run-tests.sh starts a throwaway PostgreSQL from Debian's postgresql package)"
        : nil

    private static let chromiumUnavailable: String? = {
        for path in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (Debian packages chromium chromium-driver; `make deps` installs them)"
        }
        return pythonModuleMissing("selenium")
    }()

    private static let keyringUnavailable: String? = {
        for path in ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/bin/gnome-keyring-daemon"] where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (Debian packages dbus-x11 gnome-keyring; `make deps` installs them)"
        }
        return nil
    }()

    private static let jwcryptoUnavailable: String? = pythonModuleMissing("jwcrypto")
    private static let oidcProviderMockUnavailable: String? = pythonModuleMissing("oidc_provider_mock")
    private static let aiosmtpdUnavailable: String? = pythonModuleMissing("aiosmtpd")
    private static let pyotpUnavailable: String? = pythonModuleMissing("pyotp")
    private static let prometheusUnavailable: String? = ["/usr/bin/prometheus", "/usr/bin/promtool"]
        .first { !FileManager.default.isExecutableFile(atPath: $0) }
        .map { "\($0) is missing (Debian package prometheus; `make deps` installs it)" }
    /// The `schemathesis` command beside the test tools' Python (`make pydeps` installs it).
    public static var schemathesisExecutable: String {
        URL(fileURLWithPath: PackagePaths.python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
    }
    private static let schemathesisUnavailable: String? = FileManager.default.isExecutableFile(atPath: schemathesisExecutable)
        ? nil : "\(schemathesisExecutable) is missing (PyPI schemathesis; `make pydeps` installs it)"
    private static let dnsmasqUnavailable: String? = FileManager.default.isExecutableFile(atPath: LocalDNSServer.executable)
        ? nil : "\(LocalDNSServer.executable) is missing (Debian package dnsmasq-base; `make deps` installs it)"
    private static let zbarUnavailable: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg")
        ? nil : "/usr/bin/zbarimg is missing (Debian package zbar-tools; `make deps` installs it)"

    /// A TCP socket bound to `[::1]:0`: a kernel or container without IPv6 refuses it.
    private static let ipv6LoopbackUnavailable: String? = {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return "no IPv6 socket (\(String(cString: strerror(errno))))" }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        return bound == 0 ? nil : "cannot bind [::1] (\(String(cString: strerror(errno)))): IPv6 is off in this kernel or container"
    }()

    private static func pythonModuleMissing(_ module: String) -> String? {
        guard let check = try? Subprocess.runBlocking(PackagePaths.python, ["-c", "import \(module)"]) else {
            return "no Python at \(PackagePaths.python)"
        }
        return check.succeeded ? nil : "\(module) is not installed for \(PackagePaths.python) (`make pydeps`)"
    }

    /// One line per use, `part<TAB>test id`, appended to `$SIGNET_REAL_PARTS_LOG`; one `write` of
    /// a short line to an `O_APPEND` file, so lines from concurrent tests never interleave.
    private static func record(_ part: RealPart) {
        guard let path = ProcessInfo.processInfo.environment["SIGNET_REAL_PARTS_LOG"], !path.isEmpty else { return }
        let test = Test.current.map { "\($0.id)" } ?? "outside a test"
        let line = Array("\(part.rawValue)\t\(test)\n".utf8)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}

extension Trait where Self == TimeLimitTrait {
    /// The time limit of each test in a suite that starts servers or subprocesses: a hang fails
    /// that test instead of stalling the run (scripts/check-suites.sh requires it on every suite
    /// of those test targets).
    public static var endToEndLimit: Self { .timeLimit(.minutes(5)) }
}
