import Foundation
import SignetCLI
exit(await SignetCommandLine.main(Array(CommandLine.arguments.dropFirst())))
