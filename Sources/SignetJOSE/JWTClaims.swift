import Foundation

/// The claims set of a JWT (RFC 7519 §4): a JSON object with typed accessors for the registered
/// claims and a subscript for everything else.
///
/// NumericDate claims (`exp`, `nbf`, `iat`) read integer or fractional JSON numbers and are
/// written as whole seconds. The convenience accessors return nil both for an absent claim and
/// for one of the wrong type; verification uses the strict `numericDate(_:)`/`audiences()`,
/// which tell the two apart.
public struct JWTClaims: Sendable, Hashable {
    /// All claims.
    public var values: [String: JSONValue]

    /// Creates a claims set.
    public init(_ values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// Any claim by name.
    public subscript(name: String) -> JSONValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// `iss`: the issuer.
    public var iss: String? {
        get { values["iss"]?.stringValue }
        set { values["iss"] = newValue.map(JSONValue.string) }
    }

    /// `sub`: the subject.
    public var sub: String? {
        get { values["sub"]?.stringValue }
        set { values["sub"] = newValue.map(JSONValue.string) }
    }

    /// `aud`: the audiences. Reads a single string or an array of strings; writes a single
    /// audience as a string and several as an array.
    public var aud: [String]? {
        get { try? audiences() }
        set {
            switch newValue {
            case nil: values["aud"] = nil
            case let list? where list.count == 1: values["aud"] = .string(list[0])
            case let list?: values["aud"] = .array(list.map(JSONValue.string))
            }
        }
    }

    /// `exp`: expiration time.
    public var exp: Date? {
        get { try? numericDate("exp") }
        set { setNumericDate("exp", newValue) }
    }

    /// `nbf`: not before.
    public var nbf: Date? {
        get { try? numericDate("nbf") }
        set { setNumericDate("nbf", newValue) }
    }

    /// `iat`: issued at.
    public var iat: Date? {
        get { try? numericDate("iat") }
        set { setNumericDate("iat", newValue) }
    }

    /// `jti`: the JWT ID.
    public var jti: String? {
        get { values["jti"]?.stringValue }
        set { values["jti"] = newValue.map(JSONValue.string) }
    }

    /// `nonce` (OpenID Connect Core §2).
    public var nonce: String? {
        get { values["nonce"]?.stringValue }
        set { values["nonce"] = newValue.map(JSONValue.string) }
    }

    /// The NumericDate claim `name`: nil if absent.
    ///
    /// - Throws: `JOSEError.invalidClaim(name)` if present but not a finite number.
    public func numericDate(_ name: String) throws(JOSEError) -> Date? {
        guard let value = values[name] else { return nil }
        guard let seconds = value.doubleValue, seconds.isFinite else { throw .invalidClaim(name) }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The `aud` claim as a list: nil if absent.
    ///
    /// - Throws: `JOSEError.invalidClaim("aud")` if it is neither a string nor an array of strings.
    public func audiences() throws(JOSEError) -> [String]? {
        switch values["aud"] {
        case nil: return nil
        case .string(let single)?: return [single]
        case .array(let list)?:
            var result: [String] = []
            for element in list {
                guard let string = element.stringValue else { throw .invalidClaim("aud") }
                result.append(string)
            }
            return result
        default: throw .invalidClaim("aud")
        }
    }

    /// The claims as a JSON object.
    public var jsonValue: JSONValue { .object(values) }

    private mutating func setNumericDate(_ name: String, _ date: Date?) {
        // RFC 7519 §2 allows fractions, but whole seconds are what every consumer handles.
        values[name] = date.map { .int(Int64($0.timeIntervalSince1970.rounded(.down))) }
    }
}
