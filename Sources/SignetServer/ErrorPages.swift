import SignetHTTP
import SignetJOSE
import SignetWire

/// Turns errors into responses. This is the one place that decides status codes, headers and the
/// JSON, redirect or HTML form of an error.
enum ErrorPages {
    /// A JSON error body with `Cache-Control: no-store`.
    static func json(status: Int, error: String, description: String?) -> HTTPResponse {
        var object: [String: JSONValue] = ["error": .string(error)]
        if let description { object["error_description"] = .string(description) }
        var response = HTTPResponse.json(JSONValue.object(object).serialized(), status: status)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
