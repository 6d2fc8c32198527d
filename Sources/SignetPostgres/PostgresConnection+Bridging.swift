import CLibPQ
import Foundation
import SignetStore

extension PostgresConnection {
    /// Connects with the libpq connection string or URL `conninfo`; `database`, when given,
    /// replaces the database it names. Client encoding is UTF-8.
    static func connect(conninfo: String, database: String? = nil) throws -> PostgresConnection {
        var keywords = ["dbname", "client_encoding", "application_name"]
        var values = [conninfo, "UTF8", "signet"]
        if let database {
            // Later keywords override the ones expanded from `conninfo`.
            keywords.append("dbname")
            values.append(database)
        }
        let handle = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let handle else { throw StoreError.backend("postgres: out of memory while connecting") }
        let connection = PostgresConnection(handle: handle)   // finishes the handle on every path below
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError.backend("postgres: cannot connect: \(connection.connectionMessage)")
        }
        return connection
    }

    /// True while the server connection is usable.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// True when the connection is outside any transaction (safe to hand to the next caller).
    var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// Closes the connection; only `deinit` calls this.
    func finish() {
        PQfinish(handle)
    }

    /// Runs statements without parameters (DDL, transaction control); several may be separated by `;`.
    func execute(_ sql: String) throws {
        guard let result = PQexec(handle, sql) else { throw StoreError.backend("postgres: \(connectionMessage)") }
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs `sql` with `params` (text format, binary for `bytea`), hands the result to `body`, and
    /// frees it afterwards, even when `body` throws.
    func exec<T>(_ sql: String, _ params: [PostgresValue], _ body: (OpaquePointer) throws -> T) throws -> T {
        let types = params.map(\.typeOID)
        let formats = params.map { value -> Int32 in if case .bytes = value { 1 } else { 0 } }
        var lengths: [Int32] = []
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        defer { buffers.forEach { $0?.deallocate() } }
        for value in params {
            let bytes: [UInt8]?
            switch value {
            case .text(let text): bytes = Array(text.utf8)
            case .int(let number): bytes = Array(String(number).utf8)
            case .bool(let flag): bytes = Array((flag ? "t" : "f").utf8)
            case .bytes(let raw): bytes = raw
            case .null: bytes = nil
            }
            guard let bytes else {
                lengths.append(0)
                buffers.append(nil)
                continue
            }
            // NUL-terminated for text parameters; never a NULL pointer, so an empty value is not SQL NULL.
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress ?? UnsafeRawPointer(buffer), byteCount: bytes.count)
            }
            buffer[bytes.count] = 0
            lengths.append(Int32(bytes.count))
            buffers.append(buffer)
        }
        let values = buffers.map { UnsafePointer($0) }
        let result = PQexecParams(handle, sql, Int32(params.count), types, values, lengths, formats, 0)
        guard let result else { throw StoreError.backend("postgres: \(connectionMessage)") }
        defer { PQclear(result) }
        try check(result)
        return try body(result)
    }

    static func rowCount(_ result: OpaquePointer) -> Int32 {
        PQntuples(result)
    }

    /// Rows changed by an INSERT, UPDATE or DELETE (0 for other commands).
    static func changedRows(_ result: OpaquePointer) -> Int {
        guard let text = PQcmdTuples(result) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// Throws unless `result` is a success.
    private func check(_ result: OpaquePointer) throws {
        let status = PQresultStatus(result)
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        let state = Self.field(result, "C") ?? ""
        let message = Self.field(result, "M") ?? connectionMessage
        throw Self.storeError(sqlState: state, message: message)
    }

    /// Maps uniqueness violations to `.duplicate`, missing parents to `.notFound`, the rest to `.backend`.
    /// Only the primary message is kept: libpq's full text has a DETAIL line that quotes key values.
    static func storeError(sqlState: String, message: String) -> StoreError {
        switch sqlState {
        case "23505": .duplicate        // unique_violation
        case "23503": .notFound         // foreign_key_violation
        default: .backend("postgres \(sqlState): \(message)")
        }
    }

    private static func field(_ result: OpaquePointer, _ code: Character) -> String? {
        guard let ascii = code.asciiValue, let text = PQresultErrorField(result, Int32(ascii)) else { return nil }
        return String(cString: text)
    }

    /// The connection's last error, on one line.
    var connectionMessage: String {
        guard let text = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\n", with: " ")
    }
}

/// Calls `body` with a C array of NUL-terminated copies of `strings`, followed by a NULL entry.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
