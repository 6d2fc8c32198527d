/// `--name value` options, nothing more (an example keeps its parsing small).
struct ExampleOptions {
    private var values: [String: String] = [:]

    init(_ arguments: some Sequence<String>) {
        var name: String?
        for argument in arguments {
            if let pending = name {
                values[pending] = argument
                name = nil
            } else if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
            }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// A flat JSON object of strings, escaped.
    static func json(_ object: [String: String]) -> String {
        let members = object.keys.sorted().map { key in "\"\(escape(key))\":\"\(escape(object[key] ?? ""))\"" }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
