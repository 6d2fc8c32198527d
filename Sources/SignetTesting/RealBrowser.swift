import Foundation

/// Headless Chromium from Debian driven over WebDriver (selenium), for tests of real pages.
public enum RealBrowser {
    /// Why a real-browser test cannot run here, or nil when it can.
    public static let unavailable: String? = {
        for path in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (Debian packages chromium chromium-driver; `make deps` installs them)"
        }
        guard let check = try? Subprocess.runBlocking(PackagePaths.python, ["-c", "import selenium"]) else {
            return "no Python at \(PackagePaths.python)"
        }
        return check.succeeded ? nil : "selenium is not installed for \(PackagePaths.python) (`make pydeps`)"
    }()
}
