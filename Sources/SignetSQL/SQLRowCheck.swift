import SignetStore

/// The rows a write must change (`SQLConnection.write(_:_:check:)`), and the error that fails
/// its transaction when it changes another number. Made by `write(_:_:changing:else:)` (the
/// memberwise initialiser is this module's); a backend only reads it.
public struct SQLRowCheck: Sendable, Equatable {
    /// The exact number of rows the write must change.
    public let rows: Int
    /// What the transaction fails with when the write changes another number of rows.
    public let mismatch: StoreError
}
