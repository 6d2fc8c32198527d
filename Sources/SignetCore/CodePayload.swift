import SignetJOSE

/// What the authorize side records in a code for the token side: the authentication methods
/// (`amr`), as JSON in the code's opaque `payload`. The grant family made from the code keeps them
/// in its own `amr` column (`GrantRecord.amr`) and an empty payload.
struct CodePayload {
    var amr: [String] = []

    init(amr: [String]) { self.amr = amr }

    init(_ json: String) {
        if let object = try? JSONValue.parse(Array(json.utf8)).objectValue, case .array(let values)? = object["amr"] {
            amr = values.compactMap(\.stringValue)
        }
    }

    var json: String { JSONValue.object(["amr": .array(amr.map(JSONValue.string))]).serializedString() }
}
