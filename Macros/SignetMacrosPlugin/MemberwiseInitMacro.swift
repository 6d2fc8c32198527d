import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@MemberwiseInit`: adds `public init(...)` with one parameter per stored property, in
/// declaration order, each assigned to its property. A property's initializer (`var x: T = v`)
/// becomes the parameter's default; a `let` with an initializer, a computed property, a `lazy`
/// or `static` one is left out. There is no implicit `= nil`: a default is only what is written.
public struct MemberwiseInitMacro: MemberMacro {
    public static func expansion(of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
                                 conformingTo protocols: [TypeSyntax],
                                 in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: MemberwiseInitDiagnostic.notAStruct))
            return []
        }
        var parameters: [String] = []
        var assignments: [String] = []
        var diagnosed = false
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }) else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            // `var a, b: Int`: a binding without its own annotation takes the next one's.
            var sharedType: TypeSyntax?
            var bindings: [(name: String, type: TypeSyntax?, binding: PatternBindingSyntax)] = []
            for binding in variable.bindings.reversed() {
                if let annotation = binding.typeAnnotation { sharedType = annotation.type }
                else if binding.initializer != nil { sharedType = nil }
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                bindings.insert((name, binding.typeAnnotation?.type ?? sharedType, binding), at: 0)
            }
            for (name, type, binding) in bindings where isStored(binding) {
                if isLet && binding.initializer != nil { continue }
                guard let type else {
                    context.diagnose(Diagnostic(node: binding, message: MemberwiseInitDiagnostic.missingType(name)))
                    diagnosed = true
                    continue
                }
                var parameter = "\(name): \(escapingIfFunction(type))"
                if let value = binding.initializer?.value { parameter += " = \(value.trimmedDescription)" }
                parameters.append(parameter)
                assignments.append("self.\(name) = \(name)")
            }
        }
        if diagnosed { return [] }
        let body = assignments.map { "    \($0)" }.joined(separator: "\n")
        return ["""
            /// Creates a value from each stored property, in declaration order (`@MemberwiseInit`).
            public init(\(raw: parameters.joined(separator: ", "))) {
            \(raw: body)
            }
            """]
    }

    /// Whether a binding stores a value: no accessors, or only `willSet`/`didSet` observers.
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return true }
        guard case .accessors(let list) = accessors else { return false }
        return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }

    /// A stored closure is escaping, so its parameter has to say so (an optional one already is).
    private static func escapingIfFunction(_ type: TypeSyntax) -> String {
        var bare = type
        if let attributed = type.as(AttributedTypeSyntax.self) { bare = attributed.baseType }
        return bare.is(FunctionTypeSyntax.self) ? "@escaping \(type.trimmedDescription)" : type.trimmedDescription
    }
}

/// The errors `@MemberwiseInit` reports at the declaration.
enum MemberwiseInitDiagnostic: DiagnosticMessage {
    /// The macro was attached to a class, an enum, an actor or an extension.
    case notAStruct
    /// A stored property without a type annotation (its parameter would have no type).
    case missingType(String)

    var message: String {
        switch self {
        case .notAStruct: "@MemberwiseInit applies to a struct"
        case .missingType(let name): "@MemberwiseInit needs a type annotation on stored property '\(name)'"
        }
    }

    var diagnosticID: MessageID {
        switch self {
        case .notAStruct: MessageID(domain: "SignetMacros", id: "notAStruct")
        case .missingType: MessageID(domain: "SignetMacros", id: "missingType")
        }
    }

    var severity: DiagnosticSeverity { .error }
}
