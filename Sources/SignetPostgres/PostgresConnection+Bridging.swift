import CLibPQ
import Foundation
import SignetSQL
import SignetStore

extension PostgresConnection {
    /// Connects with the libpq connection string or URL `conninfo`; `database`, when given,
    /// replaces the database it names. Client encoding is UTF-8; a connection attempt gives up
    /// after `defaultConnectTimeout` seconds unless `conninfo` sets its own `connect_timeout`.
    static func connect(conninfo: String, database: String? = nil) throws -> PostgresConnection {
        let parameters = connectionParameters(conninfo: conninfo, database: database)
        let handle = withCStrings(parameters.map(\.keyword)) { keywordPointers in
            withCStrings(parameters.map(\.value)) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let handle else { throw StoreError.backend("postgres: out of memory while connecting") }
        let connection = PostgresConnection(handle: handle)   // finishes the handle on every path below
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError.unavailable("postgres: cannot connect: \(connection.connectionMessage)")
        }
        return connection
    }

    /// libpq's `connect_timeout` (seconds) when the operator's connection string sets none: without
    /// it, connecting to an unreachable server waits for the operating system's TCP timeout.
    static let defaultConnectTimeout = 10

    /// The keywords and values for `PQconnectdbParams` (with `expand_dbname`): `conninfo` is
    /// expanded in place of `dbname`, and a keyword later in the list overrides the same keyword
    /// earlier or inside `conninfo`. So `connect_timeout` is added only when `conninfo` (URL or
    /// keyword form) and the `PGCONNECT_TIMEOUT` variable in `environment` leave it unset.
    static func connectionParameters(conninfo: String, database: String?,
                                     environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [(keyword: String, value: String)] {
        var parameters = [(keyword: "dbname", value: conninfo), ("client_encoding", "UTF8"), ("application_name", "signet")]
        if let database {
            parameters.append(("dbname", database))
        }
        let fromEnvironment = environment["PGCONNECT_TIMEOUT"].map { !$0.isEmpty } ?? false
        if !fromEnvironment, !conninfoSets("connect_timeout", conninfo) {
            parameters.append(("connect_timeout", String(defaultConnectTimeout)))
        }
        return parameters
    }

    /// True when `conninfo`, parsed as libpq parses it (`key=value …` or a `postgres[ql]://` URL),
    /// gives `keyword` a value. A string libpq cannot parse sets nothing (connecting reports it).
    static func conninfoSets(_ keyword: String, _ conninfo: String) -> Bool {
        guard let options = PQconninfoParse(conninfo, nil) else { return false }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val != nil }
            option += 1
        }
        return false
    }

    /// Sets this session's time limits (milliseconds; 0 turns them off): `statement_timeout` and
    /// `lock_timeout` to `milliseconds`, `idle_in_transaction_session_timeout` to `idleInTransaction`.
    /// Plain `SET`, so the operator's own `options` in the connection string stay as they are.
    func setTimeLimits(statement milliseconds: Int, idleInTransaction: Int) throws {
        try execute("""
            SET statement_timeout = \(milliseconds); SET lock_timeout = \(milliseconds); \
            SET idle_in_transaction_session_timeout = \(idleInTransaction)
            """)
    }

    /// True while the server connection is usable.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK && PQpipelineStatus(handle) == PQ_PIPELINE_OFF }

    /// True when the connection is outside any transaction (safe to hand to the next caller).
    var isIdle: Bool { PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// Closes the connection; only `deinit` calls this.
    func finish() {
        PQfinish(handle)
    }

    /// Runs statements without parameters (DDL, transaction control); several may be separated by `;`.
    /// What the transaction holds back (`beginPending`, `held`) is sent first, in a pipeline of its own.
    func execute(_ sql: String) throws {
        if beginPending || !held.isEmpty { _ = try pipelined(then: nil) }
        guard let result = PQexec(handle, sql) else { throw connectionError }
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs template `template` with `params` (text format, binary for `bytea`) through this
    /// connection's prepared statement for it (`preparedName`), hands the result to `body`, and
    /// frees it afterwards, even when `body` throws. What the transaction holds back (a deferred
    /// `BEGIN`, held writes) goes out in one pipeline with it, and a failure among those is
    /// thrown instead of the statement's result.
    func exec<T>(template: String, _ params: [SQLValue], _ body: (OpaquePointer) throws -> T) throws -> T {
        let name = try preparedName(template, params)
        let sent: OpaquePointer? = if beginPending || !held.isEmpty {
            try pipelined(then: (name, params))
        } else {
            withParameters(params) { values, lengths, formats in
                PQexecPrepared(handle, name, Int32(params.count), values, lengths, formats, 0)
            }
        }
        guard let result = sent else { throw connectionError }
        defer { PQclear(result) }
        try check(result)
        return try body(result)
    }

    /// This connection's prepared statement for `template`, prepared on first use (named `s1`,
    /// `s2`, … per connection; the parameter types are those of the first call, a NULL's left to
    /// the server). A failed preparation is not kept, so the next call prepares again.
    func preparedName(_ template: String, _ params: [SQLValue]) throws -> String {
        if let known = preparedNames[template] { return known }
        let name = try prepare(dialect.rendered(template), params)
        preparedNames.insert(name, for: template)
        return name
    }

    /// This connection's prepared statement for write `template` checked to change exactly
    /// `rows` rows (`rowChecked`), prepared on first use; nil when the template cannot be checked
    /// that way.
    func checkedName(_ template: String, rows: Int, _ params: [SQLValue]) throws -> String? {
        if let known = checkedNames[rows]?[template] { return known }
        guard let sql = Self.rowChecked(dialect.rendered(template), rows: rows) else { return nil }
        let name = try prepare(sql, params)
        checkedNames[rows, default: TemplateCache()].insert(name, for: template)
        return name
    }

    private func prepare(_ sql: String, _ params: [SQLValue]) throws -> String {
        let name = "s\(preparedNames.count + checkedNames.values.reduce(0) { $0 + $1.count } + 1)"
        guard let result = PQprepare(handle, name, sql, Int32(params.count), params.map(\.typeOID)) else {
            throw connectionError
        }
        defer { PQclear(result) }
        try check(result)
        return name
    }

    /// The text of the failure `rowChecked` raises, before the count the write changed.
    static let rowCheckMarker = "signet row check: changed"

    /// `write` (one `INSERT`, `UPDATE` or `DELETE` without `RETURNING`, rendered) as one
    /// statement that fails unless it changes exactly `rows` rows: the write in a data-modifying
    /// `WITH` whose `RETURNING` rows are counted, and a count other than `rows` cast to an integer
    /// from text, which fails (SQLSTATE 22P02, the text `rowCheckMarker`, the count, `rows`) inside
    /// the server; so the statements after it in the same pipeline, its `COMMIT` included, are
    /// skipped and the transaction awaits its rollback. nil for any other statement.
    static func rowChecked(_ write: String, rows: Int) -> String? {
        let verb = write.prefix { $0.isLetter }.lowercased()
        guard ["insert", "update", "delete"].contains(verb), !write.contains(";"),
              write.range(of: "returning", options: .caseInsensitive) == nil else { return nil }
        return """
            WITH signet_write AS (\(write) RETURNING 1) \
            SELECT CASE count(*) WHEN \(rows) THEN 0 \
            ELSE ('\(rowCheckMarker) ' || count(*) || ', expected \(rows)')::integer END FROM signet_write
            """
    }

    /// True when `result` is the failure of a statement made by `rowChecked`.
    static func failedRowCheck(_ result: OpaquePointer) -> Bool {
        field(result, "C") == "22P02" && field(result, "M")?.contains(rowCheckMarker) == true
    }

    /// Sends the deferred `BEGIN`, the held writes and then `final` (a prepared statement and its
    /// parameters) in one pipeline (libpq pipeline mode: they go out in one write and come back
    /// in one read), and returns `final`'s result, unchecked (nil when there is no `final`).
    /// Throws the first failure before `final`: a failed `BEGIN`, a held write's error, or its
    /// `mismatch` when its row check failed; after one the server skips the rest up to the
    /// pipeline's sync point, `final` included, and the transaction awaits its rollback. Throws
    /// the connection's error when the pipeline cannot be sent or read; a connection that cannot
    /// leave pipeline mode is no longer healthy, so the pool closes it.
    func pipelined(then final: (name: String, params: [SQLValue])?) throws -> OpaquePointer? {
        let begin = beginPending, writes = held
        beginPending = false
        held = []
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError }
        defer { _ = PQexitPipelineMode(handle) }
        var queued = !begin || PQsendQueryParams(handle, PostgresDialect.dialect.beginTransaction, 0, nil, nil, nil, nil, 0) == 1
        for write in writes where queued {
            queued = send(write.name, write.params)
        }
        if queued, let final { queued = send(final.name, final.params) }
        guard PQpipelineSync(handle) == 1 else { throw connectionError }
        guard queued else {
            drainPipeline()
            throw connectionError
        }
        var failure: (any Error)?
        if begin { settle(nextPipelineResult(), &failure, mismatch: nil) }
        for write in writes { settle(nextPipelineResult(), &failure, mismatch: write.mismatch) }
        let result = final == nil ? nil : nextPipelineResult()
        drainPipeline()
        if final != nil, result == nil, failure == nil { failure = connectionError }
        if let failure {
            result.map { PQclear($0) }
            throw failure
        }
        return result
    }

    /// Queues prepared statement `name` with `params` in the pipeline; false when libpq refuses.
    private func send(_ name: String, _ params: [SQLValue]) -> Bool {
        withParameters(params) { values, lengths, formats in
            PQsendQueryPrepared(handle, name, Int32(params.count), values, lengths, formats, 0)
        } == 1
    }

    /// Frees a pipelined statement's `result` and records its failure in `failure`, unless an
    /// earlier one is recorded (the server then skipped this one): the statement's error, or
    /// `mismatch` when it is a held write whose row check failed. A missing result is the
    /// connection's error.
    private func settle(_ result: OpaquePointer?, _ failure: inout (any Error)?, mismatch: StoreError?) {
        guard let result else {
            if failure == nil { failure = connectionError }
            return
        }
        defer { PQclear(result) }
        guard failure == nil else { return }
        do {
            try check(result)
        } catch {
            if let mismatch, Self.failedRowCheck(result) { failure = mismatch } else { failure = error }
        }
    }

    /// The next query's result in the pipeline, with the NULL that ends that query read past.
    private func nextPipelineResult() -> OpaquePointer? {
        guard let result = PQgetResult(handle) else { return nil }
        if PQresultStatus(result) != PGRES_PIPELINE_SYNC {
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        return result
    }

    /// Reads and frees what is left of the pipeline up to its sync point, so that pipeline mode
    /// can be left (`PQexitPipelineMode` refuses while results are pending). Only called after
    /// `PQpipelineSync` was sent; a broken connection ends it too.
    private func drainPipeline() {
        var emptyReads = 0
        while emptyReads < 8 {
            guard let result = PQgetResult(handle) else {
                if PQstatus(handle) != CONNECTION_OK { return }
                emptyReads += 1
                continue
            }
            emptyReads = 0
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { return }
        }
    }

    /// Calls `body` with `params` as libpq's value, length and format arrays, valid during the call.
    private func withParameters<T>(_ params: [SQLValue],
                                   _ body: (_ values: [UnsafePointer<CChar>?], _ lengths: [Int32], _ formats: [Int32]) -> T) -> T {
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
        return body(buffers.map { UnsafePointer($0) }, lengths, formats)
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
        guard PQstatus(handle) == CONNECTION_OK else { throw connectionError }
        throw Self.storeError(sqlState: state, message: message)
    }

    /// Maps uniqueness violations to `.duplicate`, missing parents to `.notFound`, a connection
    /// failure or a server shutting down or starting to `.unavailable`, the rest to `.backend`
    /// (among them 57014 `query_canceled`, a statement past `statement_timeout`, and 55P03
    /// `lock_not_available`, a lock wait past `lock_timeout`: the request fails with a server error).
    /// Only the primary message is kept: libpq's full text has a DETAIL line that quotes key values.
    static func storeError(sqlState: String, message: String) -> StoreError {
        switch sqlState {
        case "23505": .duplicate        // unique_violation
        case "23503": .notFound         // foreign_key_violation
        // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; class 08 connection_exception.
        case "57P01", "57P02", "57P03": .unavailable("postgres \(sqlState): \(message)")
        case _ where sqlState.hasPrefix("08"): .unavailable("postgres \(sqlState): \(message)")
        default: .backend("postgres \(sqlState): \(message)")
        }
    }

    private static func field(_ result: OpaquePointer, _ code: Character) -> String? {
        guard let ascii = code.asciiValue, let text = PQresultErrorField(result, Int32(ascii)) else { return nil }
        return String(cString: text)
    }

    /// The connection's last error as the store's error.
    /// A lost connection is `.unavailable` (the pool opens a new one for the next request).
    var connectionError: StoreError {
        PQstatus(handle) == CONNECTION_OK ? .backend("postgres: \(connectionMessage)") : .unavailable("postgres: \(connectionMessage)")
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
