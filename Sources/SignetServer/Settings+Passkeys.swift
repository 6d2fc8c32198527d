/// The `passkeys` and `native_apps` sections (docs/passkeys.md).
extension Settings {
    // MARK: passkeys
    /// The WebAuthn RP ID.
    public static let passkeysRPID = Setting(\SignetConfiguration.passkeys.rpID, "rp_id", nil,
                                             .optional(.string("host name", problem: { SignetConfiguration.rpIDShapeProblem($0) })),
        "The WebAuthn relying party ID passkeys are bound to. Unset: the issuer's host. May name a parent domain of the issuer's host (`example.com` for `https://id.example.com`) so the passkeys also work on its other subdomains; it must be the issuer's host or a suffix of it after a dot, and cannot be changed later without every passkey becoming unusable.")
    /// Extra accepted origins.
    public static let passkeysAllowedOrigins = Setting(\SignetConfiguration.passkeys.allowedOrigins, "allowed_origins", [],
                                                       .strings("array of origin", problem: { SignetConfiguration.passkeyOriginProblem($0) }),
        "Origins accepted in a ceremony's client data besides the issuer's own (always accepted): other https origins under the RP ID (`https://www.example.com`), and Android apps as `android:apk-key-hash:<base64url SHA-256 of the signing certificate>` (Credential Manager sends that origin for a native app).")
    /// Challenges one client address may ask for per minute.
    public static let passkeysOptionsPerMinute = Setting(\SignetConfiguration.passkeys.optionsPerMinute, "options_per_minute", 30,
                                                         .integer(1...10_000),
        "Passkey challenges (the options of every ceremony: sign-in and registration, on the web and from native apps) one client address (an IPv6 client by its /64) may ask for in a sliding minute; more are refused with 429 and `Retry-After`.")
    /// The most ceremony rows the store keeps.
    public static let passkeysMaxCeremonies = Setting(\SignetConfiguration.passkeys.maxCeremonies, "max_ceremonies", 10_000,
                                                      .integer(100...10_000_000),
        "The most passkey challenges kept at once in `passkey_ceremonies`. When the table is full, a new challenge first removes the expired and used ones; if it is still full (a flood from many addresses), the options are refused with 503 `temporarily_unavailable` until challenges expire (5 minutes). `signet purge` and the purge job remove expired ones too.")
    /// The settings of the `passkeys` object, in reference order.
    public static let passkeys = SettingsGroup<SignetConfiguration>(key: "passkeys", title: "Passkeys (WebAuthn)", settings: [
        passkeysRPID.entry, passkeysAllowedOrigins.entry, passkeysOptionsPerMinute.entry, passkeysMaxCeremonies.entry,
    ])

    // MARK: native apps
    /// First-party iOS and macOS apps.
    public static let nativeAppsApple = Setting(\SignetConfiguration.nativeApps.apple, "apple", [], .appleApps,
        "First-party Apple apps as [{\"team_id\": \"ABCDE12345\", \"bundle_id\": \"com.example.app\"}]: listed in /.well-known/apple-app-site-association as `webcredentials` (passkeys) and, with the paths of the claimed https redirect URIs of the registered clients, as `applinks` (universal links).")
    /// First-party Android apps.
    public static let nativeAppsAndroid = Setting(\SignetConfiguration.nativeApps.android, "android", [], .androidApps,
        "First-party Android apps as [{\"package\": \"com.example.app\", \"sha256_cert_fingerprints\": [\"AB:CD:…\"]}] (the signing certificates' SHA-256, 32 colon-separated hex bytes): listed in /.well-known/assetlinks.json with `get_login_creds` (passkeys and passwords) and `handle_all_urls` (app links).")
    /// The settings of the `native_apps` object, in reference order.
    public static let nativeApps = SettingsGroup<SignetConfiguration>(key: "native_apps", title: "Native apps (association files)", settings: [
        nativeAppsApple.entry, nativeAppsAndroid.entry,
    ])
}

extension SettingKind where Value == [SignetConfiguration.AppleApp] {
    /// `[{"team_id", "bundle_id"}]`.
    static var appleApps: SettingKind {
        .objects(keys: ["team_id", "bundle_id"],
                 render: { "{\"team_id\": \"\($0.teamID)\", \"bundle_id\": \"\($0.bundleID)\"}" }) { object, site in
            guard let team = site.string("team_id", of: object, valid: SignetConfiguration.isAppleTeamID,
                                         "team_id must be the 10-character Apple team id (A-Z, 0-9)"),
                  let bundle = site.string("bundle_id", of: object, valid: SignetConfiguration.isReverseDNS,
                                           "bundle_id must be a bundle identifier such as com.example.app") else { return nil }
            return SignetConfiguration.AppleApp(teamID: team, bundleID: bundle)
        }
    }
}

extension SettingKind where Value == [SignetConfiguration.AndroidApp] {
    /// `[{"package", "sha256_cert_fingerprints"}]`.
    static var androidApps: SettingKind {
        .objects(keys: ["package", "sha256_cert_fingerprints"], render: { "{\"package\": \"\($0.package)\", …}" }) { object, site in
            guard let package = site.string("package", of: object, valid: SignetConfiguration.isReverseDNS,
                                            "package must be an Android application id such as com.example.app") else { return nil }
            guard case .array(let items)? = object["sha256_cert_fingerprints"], !items.isEmpty else {
                site.report("sha256_cert_fingerprints must be a non-empty array of fingerprints")
                return nil
            }
            var fingerprints: [String] = []
            for item in items {
                guard case .string(let text) = item, SignetConfiguration.isCertificateFingerprint(text) else {
                    site.report("each fingerprint must be 32 colon-separated hex bytes (AB:CD:…), upper case")
                    return nil
                }
                fingerprints.append(text)
            }
            return SignetConfiguration.AndroidApp(package: package, sha256CertFingerprints: fingerprints)
        }
    }
}

extension SettingKind {
    /// An array of objects with only the given `keys` (named `array of {key, …}` in the
    /// reference), each read by `item` (which reports at `key[index]` and returns nil).
    static func objects<Item: Sendable>(keys: [String], render: @escaping @Sendable (Item) -> String,
                                        _ item: @escaping @Sendable ([String: ConfigValue], ValueSite) -> Item?) -> SettingKind
    where Value == [Item] {
        array("array of {" + keys.joined(separator: ", ") + "}", of: "objects", render: render) { entry, site in
            guard case .object(let object) = entry else {
                site.report("must be an object, not \(entry.typeName)")
                return nil
            }
            if let extra = object.keys.sorted().first(where: { !keys.contains($0) }) {
                site.report("unknown key \"\(extra)\"")
                return nil
            }
            return item(object, site)
        }
    }
}
