import Foundation

/// One audit-trail entry. No field may hold a secret (code, token, password, verifier, nonce) or
/// a raw email address: `reason` is a short code, `detail` a JSON object of identifiers.
public struct AuditEvent: Sendable, Equatable {
    /// Position in the chain, assigned by the store (0 before it is appended): 1, 2, 3, … with no gap.
    public var sequence: Int64
    /// When it happened (whole microseconds once stored).
    public var at: Date
    /// Event name, e.g. `sign_in`, `refresh_token_reuse`, `code_replay`, `client_updated`.
    public var event: String
    /// Who did it: `user:ID`, `client:ID`, `cli`, `admin:CLIENT`, or nil (an anonymous caller).
    public var actor: String?
    /// The user concerned, if any.
    public var subjectID: String?
    /// The client concerned, if any.
    public var clientID: String?
    /// The caller's address (the trusted client address of the request), if any.
    public var address: String?
    /// The caller's `User-Agent`, cut to `AuditEvent.userAgentLimit` bytes, if any.
    public var userAgent: String?
    /// How the user authenticated (`pwd`, `fed:CONNECTION`, `native:CONNECTION`), if it applies.
    public var method: String?
    /// Why (a short code such as `bad_password`, `invalid_id_token`), if it applies.
    public var reason: String?
    /// Details as a JSON object (identifiers, before/after with secrets redacted).
    public var detail: String
    /// The previous entry's `hash` (the genesis value for the first), set by the store.
    public var previousHash: [UInt8]
    /// `AuditChain.hash(of:)` of this entry, set by the store.
    public var hash: [UInt8]

    /// The longest `userAgent` kept, in UTF-8 bytes.
    public static let userAgentLimit = 256

    /// Creates an event; the store assigns `sequence`, `previousHash` and `hash`.
    public init(sequence: Int64 = 0, event: String, actor: String? = nil, subjectID: String? = nil, clientID: String? = nil,
                address: String? = nil, userAgent: String? = nil, method: String? = nil, reason: String? = nil,
                detail: String = "{}", at: Date, previousHash: [UInt8] = [], hash: [UInt8] = []) {
        self.sequence = sequence
        self.at = at
        self.event = event
        self.actor = actor
        self.subjectID = subjectID
        self.clientID = clientID
        self.address = address
        self.userAgent = userAgent
        self.method = method
        self.reason = reason
        self.detail = detail
        self.previousHash = previousHash
        self.hash = hash
    }
}
