@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin that serves Signet's macros: the compiler starts it and exchanges
/// length-prefixed JSON messages with it over standard input and output.
///
/// swift-syntax's `SwiftCompilerPlugin` module (whose `CompilerPlugin.main` does this) is not
/// in the toolchain's host libraries, so the loop is set up here from the message-handling module
/// the toolchain does ship.
@main
struct SignetMacrosPlugin: PluginProvider {
    /// The macro type a `#externalMacro(module: "SignetMacrosPlugin", type: ...)` names.
    func resolveMacro(moduleName: String, typeName: String) throws -> Macro.Type {
        switch typeName {
        case "MemberwiseInitMacro": MemberwiseInitMacro.self
        default: throw UnknownMacro(moduleName: moduleName, typeName: typeName)
        }
    }

    /// Runs the message loop until the compiler closes standard input.
    static func main() throws {
        let connection = try StandardIOMessageConnection()
        try CompilerPluginMessageListener(connection: connection, provider: SignetMacrosPlugin()).main()
    }
}

/// A macro this plugin does not have.
struct UnknownMacro: Error, CustomStringConvertible {
    /// The module the declaration named.
    var moduleName: String
    /// The type the declaration named.
    var typeName: String

    var description: String { "SignetMacrosPlugin has no macro \(moduleName).\(typeName)" }
}
