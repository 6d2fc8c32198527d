import Foundation
import SignetStore

/// A statement parameter as libpq receives it: text for everything except byte strings, which go
/// in binary format (raw bytes, no escaping). Each carries its type OID, so the server never has
/// to guess a parameter's type from context.
enum PostgresValue: Sendable {
    case text(String)
    case int(Int64)
    case bool(Bool)
    case bytes([UInt8])
    case null

    /// The parameter's type OID (`pg_type.oid`); 0 lets the server infer the type of a NULL.
    var typeOID: UInt32 {
        switch self {
        case .text: 25      // text
        case .int: 20       // int8
        case .bool: 16      // bool
        case .bytes: 17     // bytea
        case .null: 0
        }
    }
}

/// A Swift value that can be a statement parameter: dates as integer microseconds since 1970,
/// booleans as `boolean`, byte arrays as `bytea`, nil as SQL NULL.
protocol PostgresBindable {
    /// The value as a parameter.
    var postgresValue: PostgresValue { get }
}

extension String: PostgresBindable {
    var postgresValue: PostgresValue { .text(self) }
}

extension Int64: PostgresBindable {
    var postgresValue: PostgresValue { .int(self) }
}

extension Int: PostgresBindable {
    var postgresValue: PostgresValue { .int(Int64(self)) }
}

extension Bool: PostgresBindable {
    var postgresValue: PostgresValue { .bool(self) }
}

extension Date: PostgresBindable {
    var postgresValue: PostgresValue { .int(microsecondsSince1970) }
}

extension Array: PostgresBindable where Element == UInt8 {
    var postgresValue: PostgresValue { .bytes(self) }
}

extension Optional: PostgresBindable where Wrapped: PostgresBindable {
    var postgresValue: PostgresValue { self?.postgresValue ?? .null }
}
