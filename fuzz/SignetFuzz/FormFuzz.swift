import SignetHTTP
import SignetWire

/// The form/query decoder: any bytes give fields or a `FormError`. Fields re-encoded by the strict
/// encoder parse back to the same fields, and the OAuth parameter rules agree with each other
/// (a name reported as repeated is refused by `single`, and no other name is).
enum FormFuzz {
    static func run(_ input: [UInt8]) {
        guard let fields = try? FormFields.parse(input) else { return }
        let encoded = FormEncoding.encode(fields.pairs.map { ($0.name, $0.value) })
        require((try? FormFields.parse(encoded)) == fields, "encode(parse(x)) does not parse back to the same fields")
        let parameters = RequestParameters(fields.pairs)
        let repeated = Set(parameters.repeatedNames)
        require(repeated == fields.repeatedNames, "SignetWire and SignetHTTP disagree on repeated names")
        for name in Set(fields.names).prefix(16) {
            let refused = (try? parameters.single(name)) == nil && parameters.contains(name) && !isEmptyOnly(name, fields)
            require(refused == repeated.contains(name), "single(\(name.debugDescription)) disagrees with repeatedNames")
        }
    }

    /// True when the name appears once with an empty value (`single` returns nil without refusing).
    static func isEmptyOnly(_ name: String, _ fields: FormFields) -> Bool {
        let values = fields.values(name)
        return values.count == 1 && values[0].isEmpty
    }
}
