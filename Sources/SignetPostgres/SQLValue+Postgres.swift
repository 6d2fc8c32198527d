import Foundation
import SignetSQL

/// How libpq receives a parameter: text for everything except byte strings, which go in binary
/// format (raw bytes, no escaping). Each carries its type OID, so the server never has to guess a
/// parameter's type from context.
extension SQLValue {
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
