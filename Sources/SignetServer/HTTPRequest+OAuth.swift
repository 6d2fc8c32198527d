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

    /// RFC 6750 §2.1: the token of an `Authorization: Bearer` header, or nil. Byte-level: this
    /// runs on every userinfo request, and Foundation's trimming is slow on Linux.
    var bearerToken: String? {
        guard let header = authorization else { return nil }
        let bytes = Array(header.utf8)
        let scheme = Array("bearer ".utf8)
        guard bytes.count > scheme.count else { return nil }
        for index in 0..<scheme.count where bytes[index] | 0x20 != scheme[index] | 0x20 { return nil }
        var start = scheme.count, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
    }
}
