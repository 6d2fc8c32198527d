import SignetCrypto

/// A public JSON Web Key (RFC 7517) for RSA, EC P-256 or OKP Ed25519.
///
/// Policy on private members: a JWK carrying any private member (`d`, `p`, `q`, `dp`, `dq`, `qi`,
/// `oth`, or a symmetric `k`) is REJECTED with `JOSEError.privateKeyMaterial` rather than silently
/// stripped: such a key published as a verification key means a secret has leaked, and that must
/// fail loudly. Signet keeps private keys as PKCS #8 (`PrivateKey.pkcs8DER`), never as JWKs.
public struct JWK: Sendable, Hashable {
    /// Key type: `RSA`, `EC` or `OKP`.
    public var kty: String
    /// Key ID.
    public var kid: String?
    /// Intended algorithm, e.g. `ES256`.
    public var alg: String?
    /// Public key use; `sig` for signing keys.
    public var use: String?
    /// Curve: `P-256` (EC) or `Ed25519` (OKP).
    public var crv: String?
    /// base64url EC x coordinate or OKP public key.
    public var x: String?
    /// base64url EC y coordinate.
    public var y: String?
    /// base64url RSA modulus.
    public var n: String?
    /// base64url RSA public exponent.
    public var e: String?

    /// Members that only private (or symmetric) keys have.
    static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Creates a JWK from its members (no validation until `publicKey()`).
    public init(kty: String, kid: String? = nil, alg: String? = nil, use: String? = nil, crv: String? = nil,
                x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil) {
        self.kty = kty
        self.kid = kid
        self.alg = alg
        self.use = use
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
    }

    /// Describes `publicKey` for verification with `algorithm` under `keyID`, with `use` = `sig`.
    ///
    /// - Throws: `JOSEError.algorithmNotForKey` if `algorithm` does not fit the key type.
    public init(publicKey: PublicKey, keyID: String, algorithm: SignatureAlgorithm) throws(JOSEError) {
        guard algorithm.fits(publicKey.type) else { throw .algorithmNotForKey }
        self.init(kty: "", kid: keyID, alg: algorithm.rawValue, use: "sig")
        if let rsa = publicKey.rsaComponents {
            kty = "RSA"
            n = Base64URL.encode(rsa.n)
            e = Base64URL.encode(rsa.e)
        } else if let point = publicKey.p256Coordinates {
            kty = "EC"
            crv = "P-256"
            x = Base64URL.encode(point.x)
            y = Base64URL.encode(point.y)
        } else if let raw = publicKey.ed25519Raw {
            kty = "OKP"
            crv = "Ed25519"
            x = Base64URL.encode(raw)
        } else {
            throw .invalidKey
        }
    }

    /// Builds the public key this JWK describes.
    ///
    /// - Throws: `JOSEError.invalidKey` for unsupported types or curves, missing or malformed
    ///   members, RSA integers with leading zero octets, RSA moduli under 2048 bits, or EC points
    ///   not on the curve.
    public func publicKey() throws(JOSEError) -> PublicKey {
        do {
            switch (kty, crv) {
            case ("RSA", nil):
                // RFC 7518 §2 (Base64urlUInt): the minimum number of octets, so no leading zero; one
                // key then has one JWK and one thumbprint.
                guard let n = n.flatMap(Base64URL.decode), let e = e.flatMap(Base64URL.decode),
                      let nFirst = n.first, nFirst != 0, let eFirst = e.first, eFirst != 0 else { throw JOSEError.invalidKey }
                return try PublicKey(rsaModulus: n, exponent: e)
            case ("EC", "P-256"):
                guard let x = x.flatMap(Base64URL.decode), let y = y.flatMap(Base64URL.decode) else { throw JOSEError.invalidKey }
                return try PublicKey(p256X: x, y: y)
            case ("OKP", "Ed25519"):
                guard let x = x.flatMap(Base64URL.decode) else { throw JOSEError.invalidKey }
                return try PublicKey(ed25519: x)
            default:
                throw JOSEError.invalidKey
            }
        } catch {
            throw .invalidKey
        }
    }

    /// The algorithm this key verifies: its `alg` if present (which must be supported and fit the
    /// key type); otherwise ES256 for P-256, EdDSA for Ed25519, and RS256 for RSA (the OpenID
    /// Connect default, OIDC Core §3.1.3.7).
    public func signatureAlgorithm() throws(JOSEError) -> SignatureAlgorithm {
        let inferred: SignatureAlgorithm
        switch (kty, crv) {
        case ("RSA", nil): inferred = .rs256
        case ("EC", "P-256"): inferred = .es256
        case ("OKP", "Ed25519"): inferred = .edDSA
        default: throw .invalidKey
        }
        guard let alg else { return inferred }
        guard let algorithm = SignatureAlgorithm(rawValue: alg) else { throw .algorithmNotForKey }
        switch (algorithm, inferred) {
        case (.rs256, .rs256), (.ps256, .rs256), (.es256, .es256), (.edDSA, .edDSA): return algorithm
        default: throw .algorithmNotForKey
        }
    }

    /// A verification key pinned to `signatureAlgorithm()`, identified by `kid` (or, when the JWK
    /// has no `kid`, by its RFC 7638 thumbprint).
    public func verificationKey() throws(JOSEError) -> VerificationKey {
        try VerificationKey(keyID: kid ?? thumbprint(), algorithm: signatureAlgorithm(), publicKey: publicKey())
    }

    /// The RFC 7638 thumbprint: base64url SHA-256 of the required members in lexicographic order,
    /// without whitespace (`{"e":…,"kty":"RSA","n":…}`, `{"crv":…,"kty":"EC","x":…,"y":…}`,
    /// `{"crv":…,"kty":"OKP","x":…}`).
    public func thumbprint() -> String {
        let members: [(String, String?)]
        switch kty {
        case "RSA": members = [("e", e), ("kty", kty), ("n", n)]
        case "EC": members = [("crv", crv), ("kty", kty), ("x", x), ("y", y)]
        case "OKP": members = [("crv", crv), ("kty", kty), ("x", x)]
        default: members = [("kty", kty)]
        }
        var json: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            JSONValue.writeString(member.0, into: &json)
            json.append(UInt8(ascii: ":"))
            JSONValue.writeString(member.1 ?? "", into: &json)
        }
        json.append(UInt8(ascii: "}"))
        return Base64URL.encode(Digest.sha256(json))
    }
}

extension JWK {
    /// Reads a public JWK from a JSON object.
    ///
    /// Unknown members are ignored (RFC 7517 §4). Known members must be strings.
    /// - Throws: `JOSEError.privateKeyMaterial` for private members, `.notAJSONObject`, or
    ///   `.invalidKey` for a missing `kty` or a non-string member.
    public init(json: JSONValue) throws(JOSEError) {
        guard let object = json.objectValue else { throw .notAJSONObject }
        if object.keys.contains(where: Self.privateMembers.contains) { throw .privateKeyMaterial }
        func string(_ name: String) throws(JOSEError) -> String? {
            guard let value = object[name] else { return nil }
            guard let string = value.stringValue else { throw .invalidKey }
            return string
        }
        guard let kty = try string("kty") else { throw .invalidKey }
        self.init(kty: kty, kid: try string("kid"), alg: try string("alg"), use: try string("use"),
                  crv: try string("crv"), x: try string("x"), y: try string("y"), n: try string("n"), e: try string("e"))
    }

    /// Parses a public JWK from JSON bytes (strict JSON; duplicate members rejected).
    public init(jsonBytes: [UInt8]) throws(JOSEError) {
        try self.init(json: JSONValue.parseForJOSE(jsonBytes))
    }

    /// The JWK as a JSON object (absent members omitted).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["kty": .string(kty)]
        let optional: [(String, String?)] = [("kid", kid), ("alg", alg), ("use", use), ("crv", crv),
                                             ("x", x), ("y", y), ("n", n), ("e", e)]
        for (name, value) in optional {
            if let value { object[name] = .string(value) }
        }
        return .object(object)
    }

    /// Deterministic JSON serialization (sorted members).
    public func jsonBytes() -> [UInt8] {
        jsonValue.serialized()
    }
}

extension JSONValue {
    /// Parses JOSE JSON, mapping parser errors to `JOSEError`.
    static func parseForJOSE(_ bytes: [UInt8]) throws(JOSEError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes, maximumDepth: 32)
        } catch {
            throw error.kind == .duplicateKey ? .duplicateJSONKey : .malformedJSON
        }
    }
}
