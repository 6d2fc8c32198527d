import SignetClientCore
import SignetJOSE
import SignetWire

/// The one place that decides what an upstream identity is worth under a connection's rules:
/// the browser callback (`UpstreamProvider`, `FederationRoutes`) and native ID-token sign-in
/// (`NativeSignInVerifier`) both build the identity and check it here, so the two paths cannot
/// drift apart.
extension Connection {
    /// Whether `email_verified` vouches for the email: Apple sends a boolean or the string
    /// "true"; Google and OpenID Connect Core §5.1 define a JSON boolean, so a string is not one.
    public func vouchesForEmail(_ claim: JSONValue?) -> Bool {
        type == .apple ? (ValidatedIDToken.flexibleBool(claim) ?? false) : claim == .bool(true)
    }

    /// The identity a validated ID token names: `sub`, the email and whether the provider
    /// vouches for it (`vouchesForEmail`), the names, Google's `hd`, Apple's private relay flag.
    public func identity(from token: ValidatedIDToken) throws(FederationError) -> UpstreamIdentity {
        guard !token.subject.isEmpty else { throw .missingSubject }
        let claims = token.claims
        return UpstreamIdentity(issuer: token.issuer, subject: token.subject, email: token.email,
                                emailVerified: vouchesForEmail(claims["email_verified"]),
                                name: claims["name"]?.stringValue, givenName: claims["given_name"]?.stringValue,
                                familyName: claims["family_name"]?.stringValue,
                                isPrivateRelayEmail: ValidatedIDToken.flexibleBool(claims["is_private_email"]) ?? false,
                                hostedDomain: type == .google ? claims["hd"]?.stringValue : nil)
    }

    /// The connection's account rules that do not depend on existing accounts, in order:
    /// Google's `hd` must equal the configured `hosted_domain`; an email is required (accounts
    /// are keyed on it); with `allowed_email_domains`, only a verified email in a listed domain
    /// passes (an unverified address proves nothing about its domain). Whether the provider
    /// vouches for the email otherwise decides, in the account resolver, between linking, proof
    /// first and refusal.
    public func checkPolicy(_ identity: UpstreamIdentity) throws(FederationError) {
        if type == .google, let required = hostedDomain, identity.hostedDomain?.lowercased() != required {
            throw .domainNotAllowed
        }
        guard identity.email != nil else { throw .emailNotVerified }
        if let allowed = allowedEmailDomains, !allowed.isEmpty {
            guard identity.emailVerified, acceptsEmailDomain(identity.email) else { throw .domainNotAllowed }
        }
    }
}
