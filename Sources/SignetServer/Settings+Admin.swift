extension Settings {
    // MARK: admin
    /// The admin listener's addresses.
    public static let adminListen = Setting(\SignetConfiguration.admin.listen, "listen", ["127.0.0.1:9080"],
                                            .strings("array of HOST:PORT", problem: { SignetConfiguration.listenProblem($0) }),
        "Addresses of the admin listener, which alone serves /admin/v1 (the admin API and its OpenAPI document), /metrics, /healthz and /readyz; the public listener answers 404 for every /admin path. Loopback by default; an empty array turns the admin listener off. It uses the http.* limits and TLS of the public listener. Port 0 picks a free port.")
    /// The settings of the `admin` object, in reference order.
    public static let admin = SettingsGroup<SignetConfiguration>(key: "admin", title: "Admin listener", settings: [
        adminListen.entry,
    ])
}

extension SignetConfiguration {
    /// The admin listener (`admin` in `signet.json`).
    public struct Admin: Sendable {
        /// Where the admin listener accepts connections; empty: no admin listener.
        public var listen: [String] = Settings.adminListen.defaultValue
    }
}
