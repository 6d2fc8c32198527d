/// Which real provider a `MockProvider` imitates.
public enum MockProviderFlavor: String, Sendable, CaseIterable {
    /// Google: RS256, `email_verified` a JSON boolean, `azp` = client id, redirects with 302.
    case google
    /// Sign in with Apple: RS256, `email_verified`/`is_private_email` as STRINGS, `nonce_supported`,
    /// `response_mode=form_post` answered with an auto-submitting HTML form.
    case apple
    /// GitHub: OAuth only (no ID token, no discovery); `/login/oauth/access_token`, `/user`,
    /// `/user/emails`.
    case github
    /// A generic OpenID Connect provider signing with ES256.
    case generic
}
