/// Adds `public init(...)` to a struct: one parameter per stored property, in declaration order,
/// each assigned to its property. Swift synthesizes only an internal memberwise init; this one is
/// public, so a public record writes its field list once.
///
/// A property's initializer (`public var extra: String = "{}"`) becomes the parameter's default;
/// an optional without one has no default (write `= nil` where callers may leave it out). A `let`
/// with an initializer, a computed, `lazy` or `static` property is left out. A stored property
/// needs a type annotation. Server-side modules only: the SDK's modules do not use it.
@attached(member, names: named(init))
public macro MemberwiseInit() = #externalMacro(module: "SignetMacrosPlugin", type: "MemberwiseInitMacro")
