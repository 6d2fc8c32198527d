import Foundation

extension SignetConfiguration {
    /// WebAuthn (`passkeys`).
    public struct Passkeys: Sendable {
        /// The RP ID; nil: the issuer's host.
        public var rpID: String? = Settings.passkeysRPID.defaultValue
        /// Extra accepted origins.
        public var allowedOrigins: [String] = Settings.passkeysAllowedOrigins.defaultValue
        /// Challenges per client address per minute.
        public var optionsPerMinute: Int = Settings.passkeysOptionsPerMinute.defaultValue
        /// The most ceremony rows kept.
        public var maxCeremonies: Int = Settings.passkeysMaxCeremonies.defaultValue
    }

    /// First-party apps for the association files (`native_apps`).
    public struct NativeApps: Sendable {
        /// Apple apps.
        public var apple: [AppleApp] = Settings.nativeAppsApple.defaultValue
        /// Android apps.
        public var android: [AndroidApp] = Settings.nativeAppsAndroid.defaultValue
    }

    /// An iOS or macOS app: `TEAMID.bundle` is its application identifier.
    public struct AppleApp: Sendable, Equatable {
        /// The 10-character team id.
        public var teamID: String
        /// The bundle identifier.
        public var bundleID: String
        /// `TEAMID.bundle`, as the association file names it.
        public var appID: String { "\(teamID).\(bundleID)" }
    }

    /// An Android app.
    public struct AndroidApp: Sendable, Equatable {
        /// The application id (package name).
        public var package: String
        /// The SHA-256 fingerprints of its signing certificates, `AB:CD:…`.
        public var sha256CertFingerprints: [String]
    }

    /// The issuer's host (lowercased), or nil for an unparsable issuer.
    public var issuerHost: String? {
        URLComponents(string: issuer)?.host?.lowercased()
    }

    /// The RP ID in use: `passkeys.rp_id`, or the issuer's host.
    public var passkeyRPID: String {
        (passkeys.rpID ?? issuerHost ?? "").lowercased()
    }

    /// The issuer's origin (`scheme://host[:port]`).
    public var issuerOrigin: String {
        guard let url = URLComponents(string: issuer), let scheme = url.scheme, let host = url.host else { return issuer }
        return "\(scheme.lowercased())://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Every origin a ceremony may come from: the issuer's and `passkeys.allowed_origins`.
    public var passkeyOrigins: Set<String> {
        Set([issuerOrigin] + passkeys.allowedOrigins)
    }

    /// Why a `passkeys.rp_id` cannot be an RP ID at all, or nil (its relation to the issuer is
    /// checked with the other cross-field rules).
    static func rpIDShapeProblem(_ rpID: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-.")
        guard !rpID.isEmpty, rpID.allSatisfy({ allowed.contains($0) }), !rpID.hasPrefix("."), !rpID.hasSuffix("."),
              !rpID.contains("..") else {
            return "must be a lower-case host name such as example.com (no scheme, port or path)"
        }
        return nil
    }

    /// Why `rpID` cannot be the RP ID of an issuer on `host`, or nil. W3C WebAuthn §5.1.4.1 (via
    /// HTML's "is a registrable domain suffix of or is equal to"): the host itself or a suffix after
    /// a dot; a bare top-level label (`com`) is refused as a stand-in for the public suffix list.
    static func rpIDProblem(_ rpID: String, host: String) -> String? {
        if rpID == host { return nil }
        guard host.hasSuffix("." + rpID) else { return "must be the issuer's host \(host) or a parent domain of it" }
        guard rpID.contains(".") else { return "must not be a top-level domain alone" }
        return nil
    }

    /// Why an extra origin is not acceptable, or nil.
    static func passkeyOriginProblem(_ origin: String) -> String? {
        if origin.hasPrefix("android:apk-key-hash:") {
            let hash = origin.dropFirst("android:apk-key-hash:".count)
            let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            guard hash.count == 43, hash.allSatisfy({ alphabet.contains($0) }) else {
                return "an Android origin is android:apk-key-hash: and the unpadded base64url SHA-256 of the signing certificate (43 characters)"
            }
            return nil
        }
        guard let url = URLComponents(string: origin), url.scheme == "https", let host = url.host, !host.isEmpty,
              url.path.isEmpty, url.query == nil, url.fragment == nil, origin == origin.lowercased() else {
            return "must be an https origin such as https://www.example.com (lower case, no path) or android:apk-key-hash:…"
        }
        return nil
    }

    static func isAppleTeamID(_ text: String) -> Bool {
        text.count == 10 && text.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    static func isReverseDNS(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy { allowed.contains($0) } }
    }

    static func isCertificateFingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        let hex = Set("0123456789ABCDEF")
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy { hex.contains($0) } }
    }
}
