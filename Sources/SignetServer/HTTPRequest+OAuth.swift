import SignetHTTP
import SignetWire

extension HTTPRequest {
    /// The OAuth parameters of the request: the query for GET, the form body for POST.
    /// Malformed encoding or a wrong content type is `invalid_request`.
    func oauthParameters() throws(OAuthError) -> RequestParameters {
        if method == .POST {
            do { return RequestParameters(try form().pairs) } catch {
                throw OAuthError.invalidRequest(error == .unsupportedContentType
                    ? "The body must be application/x-www-form-urlencoded."
                    : "The request body is not valid form encoding.")
            }
        }
        if queryError != nil { throw OAuthError.invalidRequest("The query string is not valid URL encoding.") }
        return RequestParameters(query.pairs)
    }

    /// The `Authorization` header.
    var authorization: String? { headers["Authorization"] }

    /// RFC 6750 §2.1: the token of an `Authorization: Bearer` header, or nil.
    var bearerToken: String? {
        guard let header = authorization, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
