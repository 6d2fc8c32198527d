/// How `MockProvider.mintIDToken` signs.
public enum MockSigning: Sendable {
    /// With the flavor's published key (RS256 for Google/Apple/GitHub, ES256 for generic).
    case valid
    /// With the published RS256 key.
    case rs256
    /// With the published ES256 key.
    case es256
    /// Valid header and payload, corrupted signature.
    case badSignature
    /// Signed by a key that is not published, under a `kid` that is not published.
    case unknownKeyID
    /// Signed by an unpublished key that claims a PUBLISHED `kid` (a forgery).
    case forgedWithPublishedKeyID
    /// `alg: none` with an empty signature (an unsecured JWT).
    case algorithmNone
    /// `alg: HS256`, MACed with the RSA key's public modulus as the secret (the classic confusion).
    case hs256
}
