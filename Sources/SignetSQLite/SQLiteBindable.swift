/// A Swift value that can be bound to a statement parameter.
///
/// Text and blobs are bound with `SQLITE_TRANSIENT` (SQLite copies them), dates as integer
/// microseconds since 1970, booleans as 0/1, and nil as SQL NULL.
protocol SQLiteBindable {
    /// Binds the value to parameter `index` (1-based) of `statement`; returns the SQLite result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}
