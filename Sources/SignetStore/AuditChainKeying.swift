import Synchronization

/// The audit chain's key and the observer told of every append, shared by the facets of one
/// store: bound once the master key is known (`ServerEnvironment`), so a store opened for a test
/// or a tool without it keeps the unkeyed chain.
public final class AuditChainKeying: Sendable {
    private struct State {
        var key: [UInt8]?
        var sealed = false
        var observer: (@Sendable (AuditAnchor) -> Void)?
    }

    private let state = Mutex(State())

    /// No key and no observer.
    public init() {}

    /// From now on links are keyed with `key` (`MasterKey.auditChainKey`) and verified with it.
    public func bind(key: [UInt8]) {
        state.withLock { state in
            if state.key != key { state.sealed = false }
            state.key = key
        }
    }

    /// The bound key, if any.
    public var key: [UInt8]? { state.withLock { $0.key } }

    /// `observer` is told the new head after each committed `AuditLog.appendAudit(_:)`.
    public func observe(_ observer: @escaping @Sendable (AuditAnchor) -> Void) {
        state.withLock { $0.observer = observer }
    }

    /// Whether this process has yet to check that the chain's head is keyed (the first keyed
    /// append does, and keys the chain if it is not).
    public var needsSeal: Bool { state.withLock { $0.key != nil && !$0.sealed } }

    /// The head is keyed under the bound key.
    public func markSealed() {
        state.withLock { $0.sealed = true }
    }

    /// Tells the observer the head an append committed.
    public func appended(_ head: AuditAnchor) {
        state.withLock { $0.observer }?(head)
    }
}
