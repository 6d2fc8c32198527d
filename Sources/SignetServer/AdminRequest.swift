import Foundation
import SignetHTTP
import SignetJOSE

/// A JSON request body of the admin API, checked at the boundary: `application/json`, at most
/// `maximumBytes`, one object, no member outside the operation's allow-list (the first unknown
/// one is named), and each member of the type its accessor reads.
struct AdminBody {
    /// The largest body the admin API reads (413 past it).
    static let maximumBytes = 64 * 1024
    let members: [String: JSONValue]

    /// Parses `request`'s body, allowing only `allowed` members.
    init(_ request: HTTPRequest, allowed: Set<String>) throws(AdminError) {
        guard request.body.count <= Self.maximumBytes else {
            throw AdminError(status: 413, error: "payload_too_large", field: nil, message: "The body is larger than \(Self.maximumBytes) bytes.")
        }
        let type = request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/json" else {
            throw AdminError(status: 415, error: "unsupported_media_type", field: "Content-Type", message: "The body must be application/json.")
        }
        let value: JSONValue
        do { value = try JSONValue.parse(request.body, maximumDepth: 8) } catch {
            throw AdminError.invalid(nil, "The body is not valid JSON.")
        }
        guard let object = value.objectValue else { throw AdminError.invalid(nil, "The body must be a JSON object.") }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw AdminError.invalid(unknown, "is not a field of this operation")
        }
        members = object
    }

    /// Whether the body has the member (an update changes only the members it has).
    func has(_ name: String) -> Bool { members[name] != nil }

    func string(_ name: String) throws(AdminError) -> String? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw AdminError.invalid(name, "must be a string") }
        return text
    }

    func requiredString(_ name: String) throws(AdminError) -> String {
        guard let text = try string(name) else { throw AdminError.invalid(name, "is required") }
        return text
    }

    func bool(_ name: String) throws(AdminError) -> Bool? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw AdminError.invalid(name, "must be true or false") }
        return flag
    }

    func integer(_ name: String) throws(AdminError) -> Int? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let number = value.intValue, let small = Int(exactly: number), (-1_000_000_000...1_000_000_000).contains(small) else {
            throw AdminError.invalid(name, "must be a whole number")
        }
        return small
    }

    func strings(_ name: String) throws(AdminError) -> [String]? {
        guard let value = members[name], !value.isNull else { return nil }
        guard let array = value.arrayValue, array.count <= 100 else { throw AdminError.invalid(name, "must be an array of at most 100 strings") }
        var result: [String] = []
        for (index, item) in array.enumerated() {
            guard let text = item.stringValue else { throw AdminError.invalid("\(name)[\(index)]", "must be a string") }
            result.append(text)
        }
        return result
    }
}

/// The query and precondition rules every admin operation shares.
enum AdminRequest {
    /// The query parameters of `request`, refusing any not in `allowed` and any repeated one.
    static func query(_ request: HTTPRequest, allowed: Set<String>) throws(AdminError) -> [String: String] {
        let fields: FormFields
        do { fields = try request.parsedQuery() } catch { throw AdminError.invalid(nil, "The query string is malformed.") }
        var result: [String: String] = [:]
        for (name, value) in fields.pairs {
            guard allowed.contains(name) else { throw AdminError.invalid(name, "is not a query parameter of this operation") }
            guard result[name] == nil else { throw AdminError.invalid(name, "is repeated") }
            result[name] = value
        }
        return result
    }

    /// `limit` (1 to 200, default 50), `cursor` and `filter` of a list operation.
    static func page(_ request: HTTPRequest, filter: Bool = true) throws(AdminError) -> (limit: Int, cursor: String?, filter: String?) {
        try page(try query(request, allowed: filter ? ["limit", "cursor", "filter"] : ["limit", "cursor"]))
    }

    /// `limit`, `cursor` and `filter` of an already parsed query.
    static func page(_ query: [String: String]) throws(AdminError) -> (limit: Int, cursor: String?, filter: String?) {
        var limit = AdminService.defaultPageSize
        if let text = query["limit"] {
            guard let value = Int(text), (1...AdminService.maximumPageSize).contains(value) else {
                throw AdminError.invalid("limit", "must be a whole number from 1 to \(AdminService.maximumPageSize)")
            }
            limit = value
        }
        if let cursor = query["cursor"], cursor.isEmpty || cursor.utf8.count > 256 { throw AdminError.invalid("cursor", "is not a cursor this API returned") }
        if let filter = query["filter"], filter.utf8.count > 256 { throw AdminError.invalid("filter", "must be at most 256 bytes") }
        return (limit, query["cursor"], query["filter"])
    }

    /// RFC 9110 §13.1.1 and RFC 6585 §3: a write names the representation it replaces. No
    /// `If-Match` is 428; one that does not list `etag` is 412. `*` is refused as well: it would
    /// let two operators overwrite each other, which this header exists to prevent.
    static func requireMatch(_ request: HTTPRequest, etag: String) throws(AdminError) {
        let values = request.headers.values("If-Match")
        guard !values.isEmpty else {
            throw AdminError(status: 428, error: "precondition_required", field: "If-Match",
                             message: "This write needs If-Match with the resource's ETag (GET it first).")
        }
        let tags = values.joined(separator: ",").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard tags.contains(etag) else {
            throw AdminError(status: 412, error: "precondition_failed", field: "If-Match",
                             message: "The resource changed since that ETag was read; GET it again.")
        }
    }

    /// The `{id}` path parameter.
    static func id(_ request: HTTPRequest) throws(AdminError) -> String { try parameter(request, "id") }

    /// The path parameter `name` (`{session}`, `{grant}`, …): 1 to 256 bytes.
    static func parameter(_ request: HTTPRequest, _ name: String) throws(AdminError) -> String {
        guard let value = request.pathParameters[name], !value.isEmpty, value.utf8.count <= 256 else { throw AdminError.invalid(name, "is missing") }
        return value
    }

    /// An RFC 3339 time (`2026-12-01T00:00:00Z`, fractional seconds allowed), or nil.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

extension HTTPResponse {
    /// A JSON success of the admin API, `no-store`, with the resource's ETag when given.
    static func admin(_ value: JSONValue, status: Int = 200, etag: String? = nil) -> HTTPResponse {
        var response = HTTPResponse.json(value.serialized(), status: status)
        response.headers.set("Cache-Control", "no-store")
        if let etag { response.headers.set("ETag", etag) }
        return response
    }
}
