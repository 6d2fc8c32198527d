import SignetJOSE

/// Why a verification key could not be provided.
public enum KeySourceError: Error, Sendable, Equatable {
    /// No published key has the requested `kid` (even after the allowed refetch).
    case unknownKeyID
    /// The key set could not be fetched.
    case unavailable(OutboundError)
    /// The key set (or the selected key) is malformed.
    case invalidKeySet(JOSEError)
}
