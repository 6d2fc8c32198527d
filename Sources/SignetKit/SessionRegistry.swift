import Synchronization

/// The process-wide table of live sessions: one `AuthState` per stored session (storage
/// identity and key), so two holders of the same session share its refreshes instead of racing
/// with the same rotating refresh token (RFC 9700 §4.14.2: the loser's reuse revokes the family).
/// Entries are weak: a session nobody holds is forgotten, and the next holder reads storage.
final class SessionRegistry: Sendable {
    /// The one table.
    static let shared = SessionRegistry()

    private struct Entry: Sendable {
        weak var state: AuthState?
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The live state for `key`, or the one `make` creates (then registered); `existed` says
    /// which. A nil key (a storage without identity) registers nothing.
    func state(for key: String?, make: () -> AuthState) -> (state: AuthState, existed: Bool) {
        guard let key else { return (make(), false) }
        return entries.withLock { table in
            if let live = table[key]?.state { return (live, true) }
            table = table.filter { $0.value.state != nil }
            let made = make()
            table[key] = Entry(state: made)
            return (made, false)
        }
    }
}
