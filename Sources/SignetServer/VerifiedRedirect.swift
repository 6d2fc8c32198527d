import SignetCore

/// A client's redirect URI that SignetCore matched to the client's registration, with the
/// request's `state`: the only place an authorization response, a code or an error, is ever sent
/// (RFC 6749 §4.1.2.1, RFC 9700 §4.11: never redirect to an unverified URI). Made only from
/// SignetCore values that hold a verified URI; no initializer takes a string from a request.
struct VerifiedRedirect: Sendable, Equatable {
    /// The registered redirect URI, exactly as matched.
    let uri: String
    /// The request's `state`, returned unchanged.
    let state: String?

    private init(uri: String, state: String?) {
        self.uri = uri
        self.state = state
    }

    /// The redirect of a checked authorization request (its URI was matched by `AuthorizationEndpoint`).
    init(_ request: AuthorizationRequest) { self.init(uri: request.redirectURI, state: request.state) }

    /// The redirect of a pending request (stored only after it was checked).
    init(_ pending: PendingRequest) { self.init(pending.request) }

    /// The redirect of a failed authorization request; nil when the failure came before the
    /// client and its redirect URI were verified (`.page`).
    init?(_ failure: AuthorizationFailure) {
        guard case .redirect(_, let uri, let state) = failure else { return nil }
        self.init(uri: uri, state: state)
    }

    /// The redirect URI and state of a `FlowStep.code` or `.error`: SignetCore puts only the
    /// pending request's verified URI there. For no other string.
    init(flowStepURI uri: String, state: String?) { self.init(uri: uri, state: state) }
}
