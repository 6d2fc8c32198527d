extension Settings {
    // MARK: admin
    /// The admin listener's addresses.
    public static let adminListen = Setting(\SignetConfiguration.admin.listen, "listen", ["127.0.0.1:9080"],
                                            .strings("array of HOST:PORT", problem: { SignetConfiguration.listenProblem($0) }),
        "Addresses of the admin listener, which alone serves /admin/v1 (the admin API and its OpenAPI document), /metrics, /healthz and /readyz; the public listener answers 404 for every /admin path. Loopback by default; an empty array turns the admin listener off. It uses the http.* limits and TLS of the public listener. Port 0 picks a free port.")
    /// Where operators' browsers reach the console.
    public static let adminConsoleURL = Setting(\SignetConfiguration.admin.consoleURL, "console_url", nil, .optionalURL,
        "The address at which operators' browsers reach the admin listener, for the console's sign-in (its redirect URI is this + /console/callback): an SSH tunnel's local end or a reverse proxy's https URL, without a path (https, or http on a loopback address). Unset: http:// + the first admin.listen address, which is what an SSH tunnel to the same port gives.")
    /// The settings of the `admin` object, in reference order.
    public static let admin = SettingsGroup<SignetConfiguration>(key: "admin", title: "Admin listener", settings: [
        adminListen.entry, adminConsoleURL.entry,
    ])
}

extension SignetConfiguration {
    /// The admin listener (`admin` in `signet.json`).
    public struct Admin: Sendable {
        /// Where the admin listener accepts connections; empty: no admin listener.
        public var listen: [String] = Settings.adminListen.defaultValue
        /// The console's address as operators' browsers see it; nil: from `listen`.
        public var consoleURL: String? = Settings.adminConsoleURL.defaultValue

        /// The console's base URL (no trailing slash): `consoleURL`, else http:// + the first
        /// listen address (port 0 cannot be reached: the console is then off); nil: no console.
        public var consoleBase: String? {
            if let consoleURL, !consoleURL.isEmpty { return consoleURL.hasSuffix("/") ? String(consoleURL.dropLast()) : consoleURL }
            guard let first = listen.first, !first.hasSuffix(":0") else { return nil }
            return "http://" + first
        }
    }
}
