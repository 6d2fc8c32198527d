import Foundation
import SignetSync

/// The durations of a store's statements, for the server's metrics: an observer (installed by
/// `signet serve`, none by default) makes a recorder for each statement's operation, which is told
/// how long each of its statements took and whether it failed.
///
/// The operation is a name made from the statement's template, its verb and first table
/// (`select:users`, `update:refresh_tokens`, `begin`, `commit`): statements are a fixed set of
/// static templates, so the names are a small closed set, and no value a statement binds can
/// reach them.
public final class SQLTimings: Sendable {
    /// Told how long one statement of an operation took and whether it failed.
    public typealias Recorder = @Sendable (_ seconds: Double, _ failed: Bool) -> Void
    /// Makes the recorder of an operation (`select:users`, `commit`, …): asked once per template,
    /// so an observer can find its metrics series once rather than at every statement.
    public typealias Observer = @Sendable (_ operation: String) -> Recorder

    /// A recorder in a box: a closure kept in generic storage (`ThreadMutex`, a dictionary's values)
    /// is re-wrapped in a reabstraction thunk at each read, and a call would pay for the chain.
    final class Recording: Sendable {
        let record: Recorder
        init(_ record: @escaping Recorder) { self.record = record }

        /// Runs `body` and records how long it took and whether it threw.
        func measure<T>(_ body: () throws -> T) rethrows -> T {
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                let result = try body()
                record(Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9, false)
                return result
            } catch {
                record(Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9, true)
                throw error
            }
        }
    }

    /// The installed observer, and the recorder it made for each template so far.
    final class Installed: Sendable {
        private let make: Observer
        private let recordings = ThreadMutex(TemplateCache<Recording>())

        init(_ make: @escaping Observer) { self.make = make }

        /// The recording of template `sql`, made on its first statement.
        func recording(_ sql: String) -> Recording {
            recordings.withLock { recordings in
                if let known = recordings[sql] { return known }
                let made = Recording(make(SQLTimings.operation(of: sql)))
                recordings.insert(made, for: sql)
                return made
            }
        }
    }
    private let installed = ThreadMutex<Installed?>(nil)

    init() {}

    /// Sends every later statement's timing to the recorders `observer` makes (replacing any
    /// earlier observer).
    public func observe(_ observer: @escaping Observer) {
        let box = Installed(observer)
        installed.withLock { $0 = box }
    }

    var observer: Installed? { installed.withLock { $0 } }

    /// Runs `body`, statement template `sql` that a backend runs on its own rather than through a
    /// facet's connection (SQLite's group commit: the `BEGIN` and `COMMIT` of a batch), timed for
    /// the observer when one is installed.
    public func measure<T>(_ sql: String, _ body: () throws -> T) rethrows -> T {
        guard let observer else { return try body() }
        return try observer.recording(sql).measure(body)
    }

    /// `verb:table` of a statement template: the first word, and the table after `INTO`,
    /// `UPDATE` or the first `FROM` (none for `BEGIN`, `COMMIT`, …).
    static func operation(of template: String) -> String {
        let words = template.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "(" || $0 == "," || $0 == ";" })
            .map { $0.lowercased() }
        guard let verb = words.first?.filter({ $0.isLetter }), !verb.isEmpty else { return "other" }
        let marker: String? = switch verb {
        case "insert": "into"
        case "update": "update"
        case "select", "delete", "with": "from"
        default: nil
        }
        guard let marker, let index = words.firstIndex(of: marker), index + 1 < words.count else { return verb }
        let table = words[index + 1].filter { $0.isLetter || $0.isNumber || $0 == "_" }
        return table.isEmpty ? verb : "\(verb):\(table)"
    }
}

/// A database whose connections time each statement for `SQLTimings` while an observer is
/// installed; without one, the backend's connection is used as it is.
struct TimedSQLDatabase: SQLDatabase {
    let base: any SQLDatabase
    let timings: SQLTimings

    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try timed(body) { try base.read($0) }
    }

    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try timed(body) { try base.write($0) }
    }

    func transaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try timed(body) { try base.transaction($0) }
    }

    func writeOutsideTransaction<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try timed(body) { try base.writeOutsideTransaction($0) }
    }

    /// `call` (one of the backend's methods) with `body`, whose connection is timed while an
    /// observer is installed. (`call` gets `body` as escaping only to be allowed to pass it on:
    /// Swift refuses a non-escaping closure as the argument of another; nothing keeps it.)
    private func timed<T>(_ body: (any SQLConnection) throws -> T,
                          _ call: (@escaping (any SQLConnection) throws -> T) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            guard let observer = timings.observer else { return try call(body) }
            return try call { db in try body(TimedSQLConnection(base: db, observer: observer)) }
        }
    }
}

/// One connection of `TimedSQLDatabase`: the backend's, each statement timed.
final class TimedSQLConnection: SQLConnection {
    let base: any SQLConnection
    let observer: SQLTimings.Installed

    init(base: any SQLConnection, observer: SQLTimings.Installed) {
        self.base = base
        self.observer = observer
    }

    var dialect: SQLDialect { base.dialect }
    var isInTransaction: Bool { base.isInTransaction }

    func run(_ sql: String, _ binds: [any SQLBindable]) throws -> Int {
        try timed(sql) { try base.run(sql, binds) }
    }

    func query<T>(_ sql: String, _ binds: [any SQLBindable], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        try timed(sql) { try base.query(sql, binds, decode) }
    }

    /// Timed as the call: where the backend holds the write back (PostgreSQL, inside a
    /// transaction), its time falls to the statement it is sent with.
    func write(_ sql: String, _ binds: [any SQLBindable], check: SQLRowCheck?) throws {
        try timed(sql) { try base.write(sql, binds, check: check) }
    }

    /// DDL (migrations): not timed.
    func execute(_ sql: String) throws { try base.execute(sql) }

    private func timed<T>(_ sql: String, _ body: () throws -> T) throws -> T {
        try observer.recording(sql).measure(body)
    }
}
