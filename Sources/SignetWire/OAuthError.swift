/// The registered OAuth 2.0 / OpenID Connect error codes Signet can return.
///
/// Raw values are the exact strings from RFC 6749 §4.1.2.1 and §5.2, RFC 6750 §3.1, RFC 7009,
/// RFC 8707 §2 and OpenID Connect Core §3.1.2.6.
public enum OAuthErrorCode: String, Sendable, CaseIterable {
    case invalidRequest = "invalid_request"
    case invalidClient = "invalid_client"
    case invalidGrant = "invalid_grant"
    case unauthorizedClient = "unauthorized_client"
    case unsupportedGrantType = "unsupported_grant_type"
    case unsupportedResponseType = "unsupported_response_type"
    case unsupportedTokenType = "unsupported_token_type"
    case invalidScope = "invalid_scope"
    case invalidTarget = "invalid_target"
    case accessDenied = "access_denied"
    case serverError = "server_error"
    case temporarilyUnavailable = "temporarily_unavailable"
    case invalidToken = "invalid_token"
    case insufficientScope = "insufficient_scope"
    case loginRequired = "login_required"
    case consentRequired = "consent_required"
    case interactionRequired = "interaction_required"
    case accountSelectionRequired = "account_selection_required"
    case requestNotSupported = "request_not_supported"
    case requestURINotSupported = "request_uri_not_supported"
    case registrationNotSupported = "registration_not_supported"
    /// OpenID Connect Core Unmet Authentication Requirements 1.0 §2: the requested `acr` cannot be met.
    case unmetAuthenticationRequirements = "unmet_authentication_requirements"
}

/// An OAuth error: a registered code, a description safe to show the client, and a private
/// detail that only ever goes to the server log.
public struct OAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The registered error code.
    public let code: OAuthErrorCode
    /// Human-readable text for `error_description`; never contains secrets or reflected input.
    public let publicDescription: String?
    /// Detail for the operator's log; never sent to the client.
    public let privateDetail: String?
    /// What the person in front of a page is told, in every page language, when a page's script
    /// shows this error (`message` beside `error_description`, which stays the developer's
    /// ASCII text, RFC 6749 §5.2); nil: the script's own generic words. Set with `telling(_:)`.
    public private(set) var userMessage: Localized? = nil

    /// Creates an error with a code, an optional public description and an optional private detail.
    public init(_ code: OAuthErrorCode, _ publicDescription: String? = nil, detail: String? = nil) {
        self.code = code
        self.publicDescription = publicDescription
        self.privateDetail = detail
    }

    /// The error as it appears in a log line: code and private detail, never the request.
    public var description: String {
        var text = code.rawValue
        if let publicDescription { text += ": \(publicDescription)" }
        if let privateDetail { text += " [\(privateDetail)]" }
        return text
    }

    /// This error with `message` as the words a page's script shows the person.
    public func telling(_ message: some PageStrings) -> OAuthError {
        var told = self
        told.userMessage = message.localized
        return told
    }

    /// `invalid_request` with a description.
    public static func invalidRequest(_ text: String, detail: String? = nil) -> OAuthError {
        OAuthError(.invalidRequest, text, detail: detail)
    }

    /// `invalid_grant` with a description.
    public static func invalidGrant(_ text: String, detail: String? = nil) -> OAuthError {
        OAuthError(.invalidGrant, text, detail: detail)
    }

    /// `invalid_client` with a generic description (the reason stays in the detail).
    public static func invalidClient(detail: String? = nil) -> OAuthError {
        OAuthError(.invalidClient, "Client authentication failed.", detail: detail)
    }

    /// `server_error`; the cause goes to the log only.
    public static func serverError(detail: String) -> OAuthError {
        OAuthError(.serverError, "The server could not complete the request.", detail: detail)
    }
}
