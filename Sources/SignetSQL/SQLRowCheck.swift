import SignetStore

/// The rows a write must change (`SQLConnection.write(_:_:check:)`), and the error that fails
/// its transaction when it changes another number.
public struct SQLRowCheck: Sendable, Equatable {
    /// The exact number of rows the write must change.
    public let rows: Int
    /// What the transaction fails with when the write changes another number of rows.
    public let mismatch: StoreError

    /// A write that must change exactly `rows` rows, or fail with `mismatch`.
    public init(rows: Int, mismatch: StoreError) {
        self.rows = rows
        self.mismatch = mismatch
    }
}
