import SignetMacrosPlugin
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// `@MemberwiseInit`'s expansion, from source text to source text, with the toolchain's own
/// macro expander (what the compiler runs in the plugin).
@Suite struct MemberwiseInitMacroTests {
    /// Expands `source` and returns the result (without the line the attribute stood on) and the
    /// diagnostics' messages.
    private func expand(_ source: String) -> (String, [String]) {
        let context = BasicMacroExpansionContext()
        let expanded = Parser.parse(source: source)
            .expand(macros: ["MemberwiseInit": MemberwiseInitMacro.self], contextGenerator: { _ in context })
        return (String(expanded.description.drop(while: \.isNewline)), context.diagnostics.map(\.message))
    }

    /// Stored properties in order; a written initializer is the default; no implicit `= nil`;
    /// a `let` with a value, a computed, static or lazy property is left out; observers still store.
    @Test func everyStoredPropertyIsAParameterInDeclarationOrder() {
        let members = """
                public var id: String
                public var extra: String = "{}"
                public var revokedAt: Date?
                public var sessionID: String? = nil
                public let version = 1
                public let name: String
                public var first, second: Int
                public var count: Int = 0 { didSet { print(count) } }
                public var isRevoked: Bool { revokedAt != nil }
                public static var shared: Int = 0
                public lazy var cache: [Int] = []
                public var log: @Sendable (String) -> Void
                public var onEvent: (@Sendable (String) -> Void)?

            """
        let (expanded, diagnostics) = expand("@MemberwiseInit\npublic struct Record {\n" + members + "}")
        #expect(diagnostics.isEmpty)
        #expect(expanded == "public struct Record {\n" + members + """

                /// Creates a value from each stored property, in declaration order (`@MemberwiseInit`).
                public init(id: String, extra: String = "{}", revokedAt: Date?, sessionID: String? = nil, name: String, first: Int, second: Int, count: Int = 0, log: @escaping @Sendable (String) -> Void, onEvent: (@Sendable (String) -> Void)?) {
                    self.id = id
                    self.extra = extra
                    self.revokedAt = revokedAt
                    self.sessionID = sessionID
                    self.name = name
                    self.first = first
                    self.second = second
                    self.count = count
                    self.log = log
                    self.onEvent = onEvent
                }
            }
            """)
    }

    /// A stored property whose type is only inferred cannot be a parameter: an error, no init.
    @Test func aStoredPropertyWithoutATypeIsAnError() {
        let (expanded, diagnostics) = expand("""
            @MemberwiseInit
            public struct Record {
                public var id: String
                public var count = 0
            }
            """)
        #expect(diagnostics == ["@MemberwiseInit needs a type annotation on stored property 'count'"])
        #expect(!expanded.contains("init("))
    }

    /// Only a struct has a memberwise init.
    @Test func aClassIsAnError() {
        let (_, diagnostics) = expand("""
            @MemberwiseInit
            public final class Box {
                public var id: String
            }
            """)
        #expect(diagnostics == ["@MemberwiseInit applies to a struct"])
    }
}
